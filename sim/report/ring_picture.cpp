#include "ring_picture.h"

#include "report_page.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

constexpr int kNodesPerRow = 4;
constexpr double kMargin = 12, kGap = 26, kBoxHeight = 58, kBelowBox = 64, kLegendHeight = 26;
constexpr const char* kHopColour = "#8a8a8a";
constexpr const char* kBottleneckColour = "#d62728";

struct Slot {
  double x = 0, y = 0;  // centre of the rank's circle
};

struct Box {
  double left = 0, top = 0, width = 0;
};

struct Geometry {
  double radius = 10;
  std::map<std::string, Slot> of_host;
  std::map<std::string, Box> of_node;
  std::string boxes;  // the nodes' boxes and slot circles
  double height = 0;
};

// Boxes of the nodes that hold a rank, kNodesPerRow to a row; one circle per slot, its rank inside.
Geometry lay_out(const RingCase& ring, const ClusterLayout& layout, int width, const std::string& colour) {
  std::map<std::string, int> rank_of_host;
  for (std::size_t r = 0; r < ring.hosts.size(); ++r) rank_of_host.emplace(ring.hosts[r], static_cast<int>(r));
  std::vector<const NodeSlots*> nodes;
  std::size_t most_slots = 1;
  for (const NodeSlots& node : layout.nodes)
    if (std::any_of(node.hosts.begin(), node.hosts.end(), [&](const auto& host) { return rank_of_host.contains(host); }))
      nodes.push_back(&node), most_slots = std::max(most_slots, node.hosts.size());
  Geometry geometry;
  const std::size_t per_row = std::min<std::size_t>(kNodesPerRow, std::max<std::size_t>(nodes.size(), 1));
  const double box_width = (width - 2 * kMargin - (per_row - 1) * kGap) / per_row;
  const double pitch = box_width / most_slots;
  geometry.radius = std::clamp(pitch * 0.34, 5.0, 12.0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const double left = kMargin + (i % per_row) * (box_width + kGap);
    const double top = 6 + (i / per_row) * (kBoxHeight + kBelowBox);
    geometry.of_node[nodes[i]->name] = {left, top, box_width};
    geometry.boxes += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"6\" fill=\"#f7f7f7\" stroke=\"{}\" "
        "stroke-width=\"1.5\"><title>{}</title></rect>\n<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"node\">{}</text>\n",
        left, top, box_width, kBoxHeight, colour, html_escape(nodes[i]->name), left + 6, top + 14, html_escape(nodes[i]->name));
    const double node_pitch = box_width / nodes[i]->hosts.size();
    for (std::size_t s = 0; s < nodes[i]->hosts.size(); ++s) {
      const std::string& host = nodes[i]->hosts[s];
      const Slot slot{left + node_pitch * (s + 0.5), top + kBoxHeight - geometry.radius - 7};
      geometry.of_host[host] = slot;
      const auto rank = rank_of_host.find(host);
      if (rank == rank_of_host.end()) {
        geometry.boxes += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"none\" stroke=\"#ccc\" "
                                      "stroke-dasharray=\"2 2\"><title>{} (no rank)</title></circle>\n",
                                      slot.x, slot.y, geometry.radius, html_escape(host));
        continue;
      }
      geometry.boxes += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"#fff\" stroke=\"#444\"><title>rank {} on {}</title></circle>\n"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"rank\" font-size=\"{:.0f}\">{}</text>\n",
          slot.x, slot.y, geometry.radius, rank->second, html_escape(host), slot.x, slot.y + geometry.radius * 0.4,
          geometry.radius * 1.1, rank->second);
    }
  }
  const std::size_t rows = (nodes.size() + per_row - 1) / per_row;
  geometry.height = 6 + rows * (kBoxHeight + kBelowBox) + kLegendHeight;
  return geometry;
}

// A red tag on the box of the node whose link (its NIC, a rank's stack: "node0-nic", "node2-gpu0-stack")
// is the bottleneck, with the ring edges sharing it; nothing for links of no one node (a switch).
std::string bottleneck_tag(const Bottleneck& bottleneck, const Geometry& geometry) {
  const Box* box = nullptr;
  std::size_t longest = 0;
  for (const auto& [name, node_box] : geometry.of_node)
    if (bottleneck.use.link.starts_with(name + "-") && name.size() > longest) box = &node_box, longest = name.size();
  if (box == nullptr) return "";
  const std::string text = fmt::format("{} ring edge{}", bottleneck.ring_edges, bottleneck.ring_edges == 1 ? "" : "s");
  const double width = 7.2 * text.size() + 10, right = box->left + box->width - 4;
  return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"17\" rx=\"8\" fill=\"{}\"/>\n"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"tag\">{}</text>\n",
                     right - width, box->top + 3, width, kBottleneckColour, right - width / 2, box->top + 15, text);
}

std::string direction_words(const LinkUse& use) {
  if (use.direction == "up") return ", outbound";
  if (use.direction == "down") return ", inbound";
  return "";
}

// The links a hop crosses, for its tooltip: "node0-nic up, rack0-switch, node1-nic down".
std::string route_words(const std::vector<LinkUse>& route) {
  std::string words;
  for (const LinkUse& use : route)
    words += (words.empty() ? "" : ", ") + use.link + (use.direction == "shared" ? "" : " " + use.direction);
  return words;
}

// A ring hop as a curve: above the slots inside a node, below the boxes between nodes of a row.
std::string hop_path(const Slot& from, const Slot& to, double radius, bool same_node) {
  if (same_node) {
    const double lift = radius + 8 + std::min(14.0, std::abs(to.x - from.x) * 0.12);
    return fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", from.x + radius * 0.3, from.y - radius,
                       (from.x + to.x) / 2, std::min(from.y, to.y) - radius - lift, to.x - radius * 0.3, to.y - radius - 1);
  }
  if (std::abs(to.y - from.y) > 1) {
    // Between rows of nodes: from the slot's side facing the other row to the other slot's.
    const double sign = to.y > from.y ? 1 : -1;
    return fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", from.x, from.y + sign * radius, (from.x + to.x) / 2 + 24,
                       (from.y + to.y) / 2, to.x, to.y - sign * (radius + 1));
  }
  const double drop = radius + 26 + std::min(22.0, std::abs(to.x - from.x) * 0.05);
  return fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", from.x, from.y + radius, (from.x + to.x) / 2,
                     std::max(from.y, to.y) + radius + drop, to.x, to.y + radius + 1);
}

}  // namespace

std::string ring_picture_svg(const RingCase& ring, const ClusterLayout& layout, const std::string& id, int width,
                             const std::string& colour) {
  const Geometry geometry = lay_out(ring, layout, width, colour);
  std::map<std::string, std::string> node_of_host;
  for (const NodeSlots& node : layout.nodes)
    for (const std::string& host : node.hosts) node_of_host[host] = node.name;
  const std::size_t n = ring.hosts.size();
  std::string plain, highlighted;
  for (std::size_t r = 0; r < n && n > 1; ++r) {
    const std::string& from = ring.hosts[r];
    const std::string& to = ring.hosts[(r + 1) % n];
    if (!geometry.of_host.contains(from) || !geometry.of_host.contains(to)) continue;
    const auto& route = r < ring.ring.routes.size() ? ring.ring.routes[r] : std::vector<LinkUse>{};
    const bool hot = std::find(route.begin(), route.end(), ring.bottleneck.use) != route.end();
    (hot ? highlighted : plain) += fmt::format(
        "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" marker-end=\"url(#{}-{})\"><title>rank {} → rank {} "
        "({} → {}): {}</title></path>\n",
        hop_path(geometry.of_host.at(from), geometry.of_host.at(to), geometry.radius, node_of_host[from] == node_of_host[to]),
        hot ? kBottleneckColour : kHopColour, hot ? 3.2 : 1.6, id, hot ? "hot" : "hop", r, (r + 1) % n, html_escape(from),
        html_escape(to), html_escape(route_words(route)));
  }
  const double legend_y = geometry.height - 9;
  const std::string legend = fmt::format(
      "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"3.2\"/>\n"
      "<text x=\"{4}\" y=\"{5:.1f}\" class=\"legend\" fill=\"{3}\">{6}{7}: {8} ring edge{9} — the busiest link direction</text>\n",
      kMargin, legend_y - 4, kMargin + 22, kBottleneckColour, kMargin + 28, legend_y, html_escape(ring.bottleneck.use.link),
      direction_words(ring.bottleneck.use), ring.bottleneck.ring_edges, ring.bottleneck.ring_edges == 1 ? "" : "s");
  const auto marker = [&](const char* name, const char* fill) {
    return fmt::format("<marker id=\"{}-{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"{}\" markerHeight=\"{}\" "
                       "orient=\"auto-start-reverse\" markerUnits=\"userSpaceOnUse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
                       id, name, 9, 9, fill);
  };
  return fmt::format(
      "<svg class=\"ring\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0f}\" viewBox=\"0 0 {} {:.0f}\" "
      "role=\"img\">\n<defs>{}{}</defs>\n{}{}{}{}</svg>\n",
      id, width, geometry.height, width, geometry.height, marker("hop", kHopColour), marker("hot", kBottleneckColour),
      geometry.boxes, plain, highlighted, bottleneck_tag(ring.bottleneck, geometry) + legend);
}

}  // namespace ringsim
