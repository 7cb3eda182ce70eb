// The trees of NCCL's tree allreduce over a placement, written once for the rank program (nccl_tree)
// and the analysis (the tree's depth, which sizes NCCL's Simple chunks).
//
// NCCL (src/graph/trees.cc ncclGetDtree, src/graph/connect.cc ncclTopoPreset and connectTrees) builds
// a chain of each node's GPUs and, across nodes, two complementary binary trees over the node
// indices: the first a plain binary tree, the second the first shifted by one node (an even node
// count) or mirrored (odd), so that a node that is a leaf in one tree is mostly an inner node in the
// other. The first half of the channels run the first tree, the second half the second. Inside a
// node (NCCL's split-tree pattern) the chain's head exchanges with the parent node and the GPU after
// it with the child nodes, so a node's network traffic in and out leaves from different GPUs.
#pragma once

#include <vector>

namespace ringsim {

// One node in one binary tree of NODES nodes (ncclGetBtree's numbering): its parent (-1 at the
// root) and up to two children (-1 for none).
struct NodeTreeLinks {
  int parent = -1;
  int child0 = -1;
  int child1 = -1;
};

// ncclGetBtree and ncclGetDtree: NODE's links in tree 0 or tree 1 of NODES nodes.
NodeTreeLinks nccl_binary_tree(int nodes, int node);
NodeTreeLinks nccl_double_tree(int nodes, int node, int tree);

// One rank's place in one tree: its parent (-1 at the root) and its children, where the reduction
// flows child -> parent and the broadcast parent -> child.
struct RankTreeLinks {
  int parent = -1;
  std::vector<int> children;
};

// The links of every rank of SIZE ranks in tree TREE (0 or 1). NODE_OF_RANK: node index of every
// rank (empty: one rank per node); nodes are taken in order of their first rank. CHAIN_ORDER, a
// permutation of the ranks, orders each node's chain (empty: rank order). NCCL's search starts each
// channel's chain at a GPU beside that channel's NIC, as it starts the channel's ring
// (nccl_channel_rings), so successive channels leave a node through its NICs in turn: pass the
// channel's ring.
std::vector<RankTreeLinks> nccl_tree_links(int size, const std::vector<int>& node_of_rank, int tree,
                                           const std::vector<int>& chain_order = {});

// Which tree channel CHANNEL of CHANNELS runs: the first half tree 0, the rest tree 1 (one channel: tree 0).
inline int nccl_tree_of_channel(int channel, int channels) { return channel < (channels + 1) / 2 ? 0 : 1; }

// NCCL's estimate of the tree's depth (connect.cc): ranks per node - 1 + floor(log2(nodes)).
int nccl_tree_depth(int ranks, int nodes);

}  // namespace ringsim
