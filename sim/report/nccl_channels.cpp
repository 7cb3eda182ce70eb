#include "nccl_channels.h"

#include "report_page.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <map>

namespace ringsim {
// Its own namespace: the unity build puts ring_picture.cpp, with names of the same kind, beside it.
namespace channel_picture {

constexpr int kNodesPerRow = 4;
constexpr double kMargin = 12, kGap = 30, kBoxHeight = 50, kNicHeight = 16, kBelowBox = 58, kLegendHeight = 20;
constexpr const char* kBindingColour = "#d62728";
constexpr std::array<const char*, 8> kChannelColours{"#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                                     "#17becf", "#bcbd22", "#e377c2", "#7f7f7f"};

struct NicSpot {
  double x = 0, y = 0;  // bottom centre of the NIC's box
};

// The nodes' boxes with their NICs along the bottom, and where each NIC is drawn.
struct DrawnNodes {
  std::string svg;
  std::map<std::pair<int, int>, NicSpot> spot;  // (node, NIC) -> where it is drawn
  double height = 0;
};

DrawnNodes draw_nodes(const NcclChannelsCase& nccl, const std::vector<int>& order, const ClusterLayout& layout, int width,
                      const std::string& colour) {
  DrawnNodes drawn;
  const std::size_t per_row = std::min<std::size_t>(kNodesPerRow, std::max<std::size_t>(order.size(), 1));
  const double box_width = (width - 2 * kMargin - (per_row - 1) * kGap) / per_row;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto node = static_cast<std::size_t>(order[i]);
    const double left = kMargin + (i % per_row) * (box_width + kGap), top = 6 + (i / per_row) * (kBoxHeight + kBelowBox);
    const std::string name = node < layout.nodes.size() ? layout.nodes[node].name : fmt::format("node{}", node);
    drawn.svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"6\" fill=\"#f7f7f7\" stroke=\"{}\" "
                             "stroke-width=\"1.5\"><title>{}</title></rect>\n<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"node\">{}</text>\n",
                             left, top, box_width, kBoxHeight, colour, html_escape(name), left + 6, top + 14, html_escape(name));
    const std::vector<std::string> none;
    const std::vector<std::string>& nics = node < nccl.nic_links.size() ? nccl.nic_links[node] : none;
    const double pitch = box_width / std::max<std::size_t>(nics.size(), 1);
    for (std::size_t k = 0; k < nics.size(); ++k) {
      // NIC k sits at the same place in every box: a rail is a column.
      const double x = left + pitch * (k + 0.5), nic_width = std::min(pitch * 0.8, 44.0);
      const bool hot = nics[k] == nccl.hot_nic;
      drawn.svg += fmt::format("<rect class=\"nic{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"3\" fill=\"{}\" "
                               "stroke=\"#444\"><title>{}</title></rect>\n<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"rank\" "
                               "font-size=\"9\">{}</text>\n",
                               hot ? " binding" : "", x - nic_width / 2, top + kBoxHeight - kNicHeight - 4, nic_width, kNicHeight,
                               hot ? "#f6c6c6" : "#fff", html_escape(nics[k]), x, top + kBoxHeight - 8, k);
      drawn.spot[{order[i], static_cast<int>(k)}] = {x, top + kBoxHeight - 4};
    }
  }
  const std::size_t rows = (order.size() + per_row - 1) / per_row;
  drawn.height = 6 + std::max<std::size_t>(rows, 1) * (kBoxHeight + kBelowBox) + kLegendHeight;
  return drawn;
}

// Each channel from the NIC it leaves a node through to the NIC it enters the next node through; the
// ones through the binding NIC last (on top), red. HOT_COUNT: how many those are.
std::string draw_channels(const NcclChannelsCase& nccl, const std::vector<int>& order, const DrawnNodes& nodes,
                          const std::string& id, int& hot_count) {
  std::map<int, std::map<int, NcclChannelNics>> of_channel;  // channel -> node -> its crossing
  for (const NcclChannelNics& crossing : nccl.crossings) of_channel[crossing.channel][crossing.node] = crossing;
  std::string lines, hot_lines;
  for (const auto& [channel, at_node] : of_channel) {
    std::vector<NcclChannelNics> visits;
    for (int node : order)
      if (const auto it = at_node.find(node); it != at_node.end()) visits.push_back(it->second);
    for (std::size_t v = 0; v < visits.size() && visits.size() > 1; ++v) {
      const NcclChannelNics& from = visits[v];
      const NcclChannelNics& to = visits[(v + 1) % visits.size()];
      const auto a = nodes.spot.find({from.node, from.nic_out}), b = nodes.spot.find({to.node, to.nic_in});
      if (a == nodes.spot.end() || b == nodes.spot.end()) continue;
      const std::string out = nccl.nic_links.at(static_cast<std::size_t>(from.node)).at(static_cast<std::size_t>(from.nic_out));
      const std::string in = nccl.nic_links.at(static_cast<std::size_t>(to.node)).at(static_cast<std::size_t>(to.nic_in));
      const bool hot = !nccl.hot_nic.empty() && (out == nccl.hot_nic || in == nccl.hot_nic);
      const double bottom = std::max(a->second.y, b->second.y) + 14 + 3.0 * (channel % 16);
      (hot ? hot_lines : lines) += fmt::format(
          "<path class=\"channel\" d=\"M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"none\" stroke=\"{}\" "
          "stroke-width=\"{}\" marker-end=\"url(#{}-{})\"><title>channel {}: {} → {}</title></path>\n",
          a->second.x, a->second.y, a->second.x, bottom, b->second.x, bottom, b->second.x, b->second.y + 1,
          hot ? kBindingColour : kChannelColours[static_cast<std::size_t>(channel) % kChannelColours.size()], hot ? 2.4 : 1.2, id,
          hot ? "hot" : "hop", channel, html_escape(out), html_escape(in));
      hot_count += hot ? 1 : 0;
    }
  }
  return lines + hot_lines;
}

}  // namespace channel_picture

std::optional<NcclChannelsCase> nccl_channels_case(const ModelSettings& model, const PlacementSpec& placement,
                                                   const std::string& algorithm, std::uint64_t bytes) {
  if (!model.nccl_facts) return std::nullopt;
  const auto plan = plan_nccl_case(model, placement, algorithm);
  if (!plan || !plan->nccl_case || plan->nccl_case->ranks < 2) return std::nullopt;
  const NcclTopologyFacts& facts = *model.nccl_facts;
  const NcclChoice choice = plan->choice_at(bytes);
  NcclChannelsCase nccl;
  nccl.choice = nccl_choice_text(choice);
  nccl.binding = nccl_binding(*plan, choice, facts, placement);
  nccl.description = fmt::format("{}; binds: {}", nccl.choice, nccl_binding_text(nccl.binding));
  nccl.channels = plan->nccl_case->channels;
  if (plan->nccl_case->nodes > 1) nccl.crossings = nccl_rail_use(facts, placement, nccl.channels, plan->pxn()).crossings;
  for (const NcclNodeFacts& node : facts.nodes) nccl.nic_links.push_back(node.nic_links);
  if (nccl.binding.kind == "NIC") nccl.hot_nic = nccl.binding.link.substr(0, nccl.binding.link.find(' '));
  return nccl;
}

std::string nccl_channels_svg(const NcclChannelsCase& nccl, const ClusterLayout& layout, const std::string& id, int width,
                              const std::string& colour) {
  namespace picture = channel_picture;
  // The nodes the channels cross, in the order they visit them.
  std::vector<int> order;
  for (const NcclChannelNics& crossing : nccl.crossings)
    if (std::find(order.begin(), order.end(), crossing.node) == order.end()) order.push_back(crossing.node);
  std::sort(order.begin(), order.end());
  const picture::DrawnNodes nodes = picture::draw_nodes(nccl, order, layout, width, colour);
  int hot_count = 0;
  const std::string channels = picture::draw_channels(nccl, order, nodes, id, hot_count);
  const std::string legend = fmt::format(
      "<text x=\"{}\" y=\"{:.1f}\" class=\"legend\">{} ring channels, a line per channel and node{}</text>\n", picture::kMargin,
      nodes.height - 9, nccl.channels,
      nccl.hot_nic.empty() ? "" : fmt::format("; red: the {} crossing {}, which binds", hot_count, html_escape(nccl.hot_nic)));
  const auto marker = [&](const char* name, const char* fill) {
    return fmt::format("<marker id=\"{}-{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
                       "orient=\"auto-start-reverse\" markerUnits=\"userSpaceOnUse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
                       id, name, fill);
  };
  return fmt::format("<svg class=\"nccl-channels\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0f}\" "
                     "viewBox=\"0 0 {} {:.0f}\" role=\"img\">\n<defs>{}{}</defs>\n{}{}{}</svg>\n",
                     id, width, nodes.height, width, nodes.height, marker("hop", "#666"), marker("hot", picture::kBindingColour), nodes.svg,
                     channels, legend);
}

}  // namespace ringsim
