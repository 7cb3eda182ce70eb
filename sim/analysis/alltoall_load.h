// Where an alltoall's traffic meets: every ordered pair of ranks exchanges one block (S/N of the
// size S), so a node's NIC carries c (N - c) of the N (N - 1) pair flows each way, c being its ranks;
// the node with the most is the bottleneck on a non-blocking network whose NICs are slower than the
// node's own links (docs/collectives.md).
#pragma once

#include "../results/case_results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ringsim {

struct AlltoallNicLoad {
  std::string node;  // the node's name (its hosts' prefix), or the first host of a hand-written platform
  int ranks_on_node = 0;
  int ranks = 0;
  long long flows = 0;      // pair flows through the node's NIC, each way
  double buffers = 0;       // bytes each way in units of the size: flows / N
};

// Every node's NIC load in SPEC's placement (its ring: the node of every rank), in node order.
std::vector<AlltoallNicLoad> alltoall_nic_loads(const SimulationCase& spec);

// The busiest NIC of SPEC's placement; the first node on a tie.
AlltoallNicLoad busiest_alltoall_nic(const SimulationCase& spec);

// Why OTHER takes RATIO times BASE's time, both alltoalls, in words: the busiest NIC of each with its
// flows and bytes at BYTES, every NIC's flows in each placement, and whether the busiest load differs.
// ": the same; both are limited by the NIC of node0, whose ... Per NIC (node0, node1, node2), 4-3-1
// block ... carries 16, 15, 7 pair flows and 4-2-2 block ... 16, 12, 12: ..."
std::string compare_alltoall_loads(const SimulationCase& other, const std::string& other_name, const SimulationCase& base,
                                   const std::string& base_name, double ratio, std::uint64_t bytes);

// "the NIC of node0, whose 4 ranks exchange 4x4 = 16 of the 8x7 = 56 pair flows (2.00 buffers each way)"
std::string describe_alltoall_load(const AlltoallNicLoad& load);

}  // namespace ringsim
