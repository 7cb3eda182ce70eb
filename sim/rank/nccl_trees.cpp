#include "nccl_trees.h"

#include "rank_nodes.h"

#include <algorithm>

namespace ringsim {

NodeTreeLinks nccl_binary_tree(int nodes, int node) {
  // The lowest set bit of NODE names its level; node 0 is the root with one child.
  int bit = 1;
  while (bit < nodes && (bit & node) == 0) bit <<= 1;
  NodeTreeLinks links;
  if (node == 0) {
    links.child0 = nodes > 1 ? bit >> 1 : -1;
    return links;
  }
  links.parent = (node ^ bit) | (bit << 1);
  if (links.parent >= nodes) links.parent = node ^ bit;
  int low = bit >> 1;
  links.child0 = low == 0 ? -1 : node - low;
  links.child1 = low == 0 ? -1 : node + low;
  while (links.child1 >= nodes) {  // the right child past the end: a lower level's node instead
    links.child1 = low == 0 ? -1 : node + low;
    low >>= 1;
  }
  return links;
}

NodeTreeLinks nccl_double_tree(int nodes, int node, int tree) {
  if (tree == 0) return nccl_binary_tree(nodes, node);
  NodeTreeLinks links;
  if (nodes % 2 == 0) {  // shift by one node
    const NodeTreeLinks shifted = nccl_binary_tree(nodes, (node - 1 + nodes) % nodes);
    const auto back = [nodes](int n) { return n == -1 ? -1 : (n + 1) % nodes; };
    links = {back(shifted.parent), back(shifted.child0), back(shifted.child1)};
  } else {  // mirror
    const NodeTreeLinks mirrored = nccl_binary_tree(nodes, nodes - 1 - node);
    const auto back = [nodes](int n) { return n == -1 ? -1 : nodes - 1 - n; };
    links = {back(mirrored.parent), back(mirrored.child0), back(mirrored.child1)};
  }
  return links;
}

std::vector<RankTreeLinks> nccl_tree_links(int size, const std::vector<int>& node_of_rank, int tree,
                                           const std::vector<int>& chain_order) {
  // The chains: nodes in order of their first rank, each with its ranks in CHAIN_ORDER's order.
  std::vector<std::vector<int>> chains = ranks_of_nodes(size, node_of_rank);
  if (chain_order.size() == static_cast<std::size_t>(size)) {
    std::vector<int> position(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) position[static_cast<std::size_t>(chain_order[static_cast<std::size_t>(i)])] = i;
    for (std::vector<int>& chain : chains)
      std::sort(chain.begin(), chain.end(),
                [&](int a, int b) { return position[static_cast<std::size_t>(a)] < position[static_cast<std::size_t>(b)]; });
  }
  const int nodes = static_cast<int>(chains.size());
  std::vector<RankTreeLinks> links(static_cast<std::size_t>(size));
  // The chain's head talks to the parent node; the GPU after it (the head on a one-GPU node) to the children.
  const auto head = [&](int node) { return chains[static_cast<std::size_t>(node)].front(); };
  const auto hub = [&](int node) {
    const std::vector<int>& chain = chains[static_cast<std::size_t>(node)];
    return chain[std::min<std::size_t>(1, chain.size() - 1)];
  };
  for (int node = 0; node < nodes; ++node) {
    const std::vector<int>& chain = chains[static_cast<std::size_t>(node)];
    for (std::size_t i = 1; i < chain.size(); ++i) {
      links[static_cast<std::size_t>(chain[i])].parent = chain[i - 1];
      links[static_cast<std::size_t>(chain[i - 1])].children.push_back(chain[i]);
    }
    const NodeTreeLinks across = nccl_double_tree(nodes, node, tree);
    if (across.parent != -1) links[static_cast<std::size_t>(head(node))].parent = hub(across.parent);
    for (int child : {across.child0, across.child1})
      if (child != -1) links[static_cast<std::size_t>(hub(node))].children.push_back(head(child));
  }
  return links;
}

int nccl_tree_depth(int ranks, int nodes) {
  int log = 0;
  while ((2LL << log) <= nodes) ++log;
  return ranks / std::max(1, nodes) - 1 + log;
}

}  // namespace ringsim
