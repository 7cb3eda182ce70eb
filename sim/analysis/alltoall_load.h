// Where an alltoall's traffic meets: every ordered pair of ranks exchanges one block (S/N of the
// size S), so a node's NIC carries c (N - c) of the N (N - 1) pair flows each way, c being its ranks;
// the node with the most is the bottleneck on a non-blocking network whose NICs are slower than the
// node's own links (docs/collectives.md).
#pragma once

#include "../results/case_results.h"

#include <string>

namespace ringsim {

struct AlltoallNicLoad {
  std::string node;  // the node's name (its hosts' prefix), or the first host of a hand-written platform
  int ranks_on_node = 0;
  int ranks = 0;
  long long flows = 0;      // pair flows through the node's NIC, each way
  double buffers = 0;       // bytes each way in units of the size: flows / N
};

// The busiest NIC of SPEC's placement (its ring: the node of every rank); the first node on a tie.
AlltoallNicLoad busiest_alltoall_nic(const SimulationCase& spec);

// "the NIC of node0, whose 4 ranks exchange 4x4 = 16 of the 8x7 = 56 pair flows (2.00 buffers each way)"
std::string describe_alltoall_load(const AlltoallNicLoad& load);

}  // namespace ringsim
