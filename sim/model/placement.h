// Placement notation (docs/scenario-format.md, "Placements"): "4-3-1" = 4 ranks on the first node, 3 on the second,
// 1 on the third. Block order numbers ranks node by node; cyclic deals them round-robin over the
// nodes that still have room. The ring follows rank order.
#pragma once

#include "../platform/cluster_layout.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// optimized: the order `ringsim analyze --order optimized` would choose, found by the launcher for
// each simulation (optimized_order.h) before any case runs.
enum class RankOrder { block, cyclic, optimized };

struct PlacementSpec {
  std::vector<int> ranks_per_node;
  RankOrder order = RankOrder::block;
  std::vector<int> optimized_nodes = {};  // optimized: node index of each rank, once found

  int total_ranks() const;
  int nodes_used() const;                // nodes that hold at least one rank
  bool same_ranks_on_each_node() const;  // every node that holds ranks holds as many
  std::string ranks_text() const;  // "4-3-1"
  std::string label() const;       // "4-3-1 block"
};

// "4-3-1": ranks per node, in node order; "RxK" stands for K nodes of R ranks ("1x4096", "8x2-4").
std::optional<std::vector<int>> parse_rank_counts(std::string_view text);
std::optional<RankOrder> parse_rank_order(std::string_view text);
std::string_view order_name(RankOrder order);

// Why the placement cannot be laid on the layout, or nullopt when it fits.
std::optional<std::string> placement_misfit(const PlacementSpec& placement, const ClusterLayout& layout);

// Node index of every rank, in rank order. Precondition: the placement fits (and an optimized order
// has been found; std::logic_error otherwise).
std::vector<int> node_of_ranks(const PlacementSpec& placement);

// The most ring edges (rank r -> r+1 mod N on different nodes) that leave one node or enter one node:
// the sharing on the busiest NIC direction of a single-switch cluster. 0 when all ranks share a node.
int busiest_nic_direction_edges(const PlacementSpec& placement);

// The slot (GPU index on its node) of every rank, given NODE_OF_RANK: a node's ranks take its slots in
// rank order.
std::vector<int> slot_of_ranks(const std::vector<int>& node_of_rank);

// Host of every rank, in rank order (slots of a node are used in order). Precondition: it fits.
std::vector<std::string> hosts_of_ranks(const PlacementSpec& placement, const ClusterLayout& layout);

// The same, given the node of every rank (node_of_ranks).
std::vector<std::string> hosts_of_ranks(const std::vector<int>& node_of_rank, const ClusterLayout& layout);

}  // namespace ringsim
