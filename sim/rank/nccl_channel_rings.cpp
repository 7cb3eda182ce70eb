#include "nccl_channel_rings.h"

#include "rank_nodes.h"

#include <algorithm>
#include <numeric>

namespace ringsim {
namespace {

// One node's ranks (in rank order), grouped by the NIC beside them.
struct NodeRanks {
  std::vector<std::vector<int>> rails;  // ranks beside each NIC, NICs in order of their first rank
  std::vector<int> far;                 // ranks with no NIC of their own
};

std::vector<NodeRanks> ranks_by_node(const std::vector<int>& node_of_rank, const std::vector<int>& rail_of_rank) {
  // Nodes in order of their first rank (ranks_of_nodes), each node's ranks grouped by their NIC.
  std::vector<NodeRanks> nodes;
  for (const std::vector<int>& members : ranks_of_nodes(static_cast<int>(node_of_rank.size()), node_of_rank)) {
    NodeRanks& node = nodes.emplace_back();
    std::vector<int> rail_ids;  // the NIC index of each entry of node.rails
    for (int r : members) {
      const int rail = rail_of_rank.empty() ? 0 : rail_of_rank[static_cast<std::size_t>(r)];
      if (rail < 0) {
        node.far.push_back(r);
        continue;
      }
      const auto found = std::find(rail_ids.begin(), rail_ids.end(), rail);
      if (found == rail_ids.end()) {
        rail_ids.push_back(rail);
        node.rails.push_back({r});
      } else {
        node.rails[static_cast<std::size_t>(found - rail_ids.begin())].push_back(r);
      }
    }
  }
  return nodes;
}

// The node's part of channel C's ring: in at a rank beside NIC c mod k, GPUs without a NIC next, the
// other NICs' ranks in turn, out from a second rank beside the entry NIC, else from the previous NIC's.
std::vector<int> node_part(const NodeRanks& node, int channel) {
  std::vector<int> part;
  if (node.rails.empty()) return node.far;
  const std::size_t k = node.rails.size();
  const std::size_t entry = static_cast<std::size_t>(channel) % k;
  const std::vector<int>& own = node.rails[entry];
  part.push_back(own.front());
  part.insert(part.end(), node.far.begin(), node.far.end());
  for (std::size_t step = 1; step < k; ++step) {
    const std::vector<int>& rail = node.rails[(entry + step) % k];
    part.insert(part.end(), rail.begin(), rail.end());
  }
  part.insert(part.end(), own.begin() + 1, own.end());
  return part;
}

}  // namespace

std::vector<std::vector<int>> nccl_channel_rings(int size, const std::vector<int>& node_of_rank,
                                                 const std::vector<int>& rail_of_rank, int channels) {
  std::vector<std::vector<int>> rings(static_cast<std::size_t>(std::max(channels, 0)));
  if (node_of_rank.size() != static_cast<std::size_t>(size) ||
      (!rail_of_rank.empty() && rail_of_rank.size() != static_cast<std::size_t>(size))) {
    for (auto& ring : rings) {
      ring.resize(static_cast<std::size_t>(size));
      std::iota(ring.begin(), ring.end(), 0);
    }
    return rings;
  }
  const std::vector<NodeRanks> nodes = ranks_by_node(node_of_rank, rail_of_rank);
  for (int c = 0; c < channels; ++c)
    for (const NodeRanks& node : nodes) {
      const std::vector<int> part = node_part(node, c);
      rings[static_cast<std::size_t>(c)].insert(rings[static_cast<std::size_t>(c)].end(), part.begin(), part.end());
    }
  return rings;
}

int nccl_search_rails(const std::vector<int>& node_of_rank, const std::vector<int>& rail_of_rank) {
  int fewest = 0;
  for (const NodeRanks& node : ranks_by_node(node_of_rank, rail_of_rank)) {
    const int rails = std::max<int>(1, static_cast<int>(node.rails.size()));
    fewest = fewest == 0 ? rails : std::min(fewest, rails);
  }
  return std::max(1, fewest);
}

}  // namespace ringsim
