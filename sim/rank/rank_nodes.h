// Which node each rank runs on, for algorithms that treat ranks of one node differently
// (hierarchical). The launcher knows it (it places the ranks) and passes it to the rank program as
// `--nodes LIST`, so no rank asks the others at start-up: an MPI_Allgather of processor names cost
// N(N-1) small messages, which made a 256-rank SMPI run 8x slower. LIST is compact for the usual
// placements: comma-separated items, each `NODE` (one rank on that node), `NODExCOUNT` (COUNT ranks
// in a row on it) or `FIRST-LAST` (one rank on each node FIRST, FIRST+1, ..., LAST):
//   block 4-3-1 -> "0x4,1x3,2";  one rank per node on 4096 nodes -> "0-4095";  cyclic 2-2 -> "0,1,0,1".
// Both sides use this file: the launcher to write the list, the rank program to read it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// The compact LIST for the node index of every rank, in rank order.
std::string node_list_text(const std::vector<int>& node_of_rank);

// Parses LIST into NODE_OF_RANK. Returns an error message, or an empty string on success; at most
// MAX_RANKS ranks are accepted (the communicator's size, so a bad COUNT cannot exhaust memory).
std::string parse_node_list(std::string_view text, std::size_t max_ranks, std::vector<int>& node_of_rank);

// The ranks of each node of SIZE ranks, nodes in order of their first rank, each node's ranks in rank
// order. NODE_OF_RANK empty: one rank per node.
std::vector<std::vector<int>> ranks_of_nodes(int size, const std::vector<int>& node_of_rank);

}  // namespace ringsim
