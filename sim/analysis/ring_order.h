// `--order optimized`: a search for the rank order (which host is rank r) that minimises the ring's
// closed-form time on a topology, i.e. the load on its most loaded link direction.
#pragma once

#include "../platform/cluster_layout.h"
#include "topology_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ringsim {

struct OptimizedRingOrder {
  std::vector<std::string> hosts;  // host of each rank
  double time_s = 0;               // predicted ring time at the size searched for
  int moves = 0;                   // improving moves the local search made
};

// Local search (segment reversals and swaps, first improvement) from two starts: HOSTS as given and
// HOSTS grouped by locality (nodes and their slots as LAYOUT lists them: for a compact topology rack
// by rack, a NIC's GPUs adjacent). Deterministic. Above kMaxSearchedRanks ranks there is no local
// search (it tries O(N^2) moves per improvement, each an O(N) embedding: hours at 4096 ranks): the
// better of the two starts is returned.
inline constexpr std::size_t kMaxSearchedRanks = 64;
OptimizedRingOrder optimize_ring_order(const ClusterLayout& layout, TopologyRoutes& routes,
                                       const std::vector<std::string>& hosts, std::uint64_t bytes,
                                       double gpu_speed_flops);

}  // namespace ringsim
