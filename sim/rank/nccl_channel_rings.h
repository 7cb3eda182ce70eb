// The rings of NCCL's channels over a placement, written once for the rank program (nccl_ring) and the
// analysis (which NIC carries which channel, NCCL's bus bandwidth for the placement).
//
// NCCL's topology search (src/graph/search.cc, rings.cc) builds each ring channel inside a node from
// one NIC: the ring enters the node at a GPU beside that NIC, visits the node's other GPUs, and leaves
// from a GPU beside the same NIC when there is another one, else from a GPU beside the previous NIC
// (the next channel then enters there). Successive channels take the node's NICs in turn, so k ranks
// beside k different NICs spread the ring's inter-node traffic over k NICs, and ranks beside one NIC
// share it. GPUs with no NIC of their own are never the ends of a node's part of a ring. With one NIC
// per node, every channel's ring is node-contiguous in rank order (nodes in order of their first rank).
#pragma once

#include <vector>

namespace ringsim {

// SIZE ranks; NODE_OF_RANK: node index of every rank (empty: unknown); RAIL_OF_RANK: the NIC (index within its node) beside each
// rank's GPU, or -1 for none (empty: every rank beside NIC 0). Returns CHANNELS rings, each a
// permutation of the ranks in ring order. With NODE_OF_RANK empty, every ring is the rank order.
std::vector<std::vector<int>> nccl_channel_rings(int size, const std::vector<int>& node_of_rank,
                                                 const std::vector<int>& rail_of_rank, int channels);

// The NICs beside the ranks of each node (distinct, in order of their first rank): the search finds one
// ring channel per NIC, and as many on every node as on the node with the fewest (at least 1).
int nccl_search_rails(const std::vector<int>& node_of_rank, const std::vector<int>& rail_of_rank);

}  // namespace ringsim
