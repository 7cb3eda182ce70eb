#include "placement.h"

#include <charconv>
#include <fmt/format.h>
#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ringsim {

int PlacementSpec::total_ranks() const { return std::accumulate(ranks_per_node.begin(), ranks_per_node.end(), 0); }

int PlacementSpec::nodes_used() const {
  return static_cast<int>(std::count_if(ranks_per_node.begin(), ranks_per_node.end(), [](int ranks) { return ranks > 0; }));
}

bool PlacementSpec::same_ranks_on_each_node() const {
  const auto first = std::find_if(ranks_per_node.begin(), ranks_per_node.end(), [](int ranks) { return ranks > 0; });
  return std::all_of(ranks_per_node.begin(), ranks_per_node.end(), [&](int ranks) { return ranks == 0 || ranks == *first; });
}

std::string PlacementSpec::ranks_text() const { return fmt::format("{}", fmt::join(ranks_per_node, "-")); }

std::string PlacementSpec::label() const { return fmt::format("{} {}", ranks_text(), order_name(order)); }

std::optional<std::vector<int>> parse_rank_counts(std::string_view text) {
  std::vector<int> counts;
  auto number = [](std::string_view digits, int& value) {
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return ec == std::errc() && end == digits.data() + digits.size() && value >= 0 && value <= 1'000'000;
  };
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t dash = std::min(text.find('-', from), text.size());
    const std::string_view item = text.substr(from, dash - from);
    // "RxK": K nodes of R ranks each, so that a placement over thousands of nodes stays short.
    const std::size_t times = item.find('x');
    int value = -1, repeat = 1;
    if (!number(item.substr(0, times), value)) return std::nullopt;
    if (times != std::string_view::npos && (!number(item.substr(times + 1), repeat) || repeat < 1)) return std::nullopt;
    if (counts.size() + static_cast<std::size_t>(repeat) > 1'000'000) return std::nullopt;
    counts.insert(counts.end(), static_cast<std::size_t>(repeat), value);
    from = dash + 1;
  }
  if (std::accumulate(counts.begin(), counts.end(), 0LL) < 1) return std::nullopt;
  return counts;
}

std::optional<RankOrder> parse_rank_order(std::string_view text) {
  if (text == "block") return RankOrder::block;
  if (text == "cyclic") return RankOrder::cyclic;
  if (text == "optimized") return RankOrder::optimized;
  return std::nullopt;
}

std::string_view order_name(RankOrder order) {
  return order == RankOrder::block ? "block" : order == RankOrder::cyclic ? "cyclic" : "optimized";
}

std::optional<std::string> placement_misfit(const PlacementSpec& placement, const ClusterLayout& layout) {
  const auto& counts = placement.ranks_per_node;
  if (counts.size() > layout.nodes.size())
    return fmt::format("placement {} names {} nodes but the platform has {}", placement.ranks_text(), counts.size(),
                       layout.nodes.size());
  for (std::size_t k = 0; k < counts.size(); ++k)
    if (static_cast<std::size_t>(counts[k]) > layout.nodes[k].hosts.size())
      return fmt::format("placement {} puts {} ranks on node {} ({}), which has {} rank slot{}",
                         placement.ranks_text(), counts[k], k, layout.nodes[k].name, layout.nodes[k].hosts.size(),
                         layout.nodes[k].hosts.size() == 1 ? "" : "s");
  return std::nullopt;
}

std::vector<int> node_of_ranks(const PlacementSpec& placement) {
  const auto& counts = placement.ranks_per_node;
  if (placement.order == RankOrder::optimized) {
    if (placement.optimized_nodes.size() != static_cast<std::size_t>(placement.total_ranks()))
      throw std::logic_error("placement " + placement.ranks_text() + ": the optimized order was not searched before use");
    return placement.optimized_nodes;
  }
  std::vector<int> nodes;
  if (placement.order == RankOrder::block) {
    for (std::size_t k = 0; k < counts.size(); ++k) nodes.insert(nodes.end(), counts[k], static_cast<int>(k));
    return nodes;
  }
  std::vector<int> left = counts;
  for (int placed = 0, total = placement.total_ranks(); placed < total;)
    for (std::size_t k = 0; k < left.size(); ++k)
      if (left[k] > 0) --left[k], ++placed, nodes.push_back(static_cast<int>(k));
  return nodes;
}

int busiest_nic_direction_edges(const PlacementSpec& placement) {
  const auto nodes = node_of_ranks(placement);
  std::vector<int> up(placement.ranks_per_node.size(), 0), down(placement.ranks_per_node.size(), 0);
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const int from = nodes[r], to = nodes[(r + 1) % nodes.size()];
    if (from != to) ++up[from], ++down[to];
  }
  return std::max(*std::max_element(up.begin(), up.end()), *std::max_element(down.begin(), down.end()));
}

std::vector<int> slot_of_ranks(const std::vector<int>& node_of_rank) {
  std::vector<int> next_slot;
  std::vector<int> slots;
  slots.reserve(node_of_rank.size());
  for (int node : node_of_rank) {
    if (static_cast<std::size_t>(node) >= next_slot.size()) next_slot.resize(static_cast<std::size_t>(node) + 1, 0);
    slots.push_back(next_slot[static_cast<std::size_t>(node)]++);
  }
  return slots;
}

std::vector<std::string> hosts_of_ranks(const PlacementSpec& placement, const ClusterLayout& layout) {
  return hosts_of_ranks(node_of_ranks(placement), layout);
}

std::vector<std::string> hosts_of_ranks(const std::vector<int>& nodes, const ClusterLayout& layout) {
  const std::vector<int> slots = slot_of_ranks(nodes);
  std::vector<std::string> hosts;
  hosts.reserve(nodes.size());
  for (std::size_t r = 0; r < nodes.size(); ++r) hosts.push_back(layout.nodes[nodes[r]].hosts[slots[r]]);
  return hosts;
}

}  // namespace ringsim
