// NCCL's own time model of its tree allreduce (src/graph/tuning.cc: ncclTopoTuneModel and
// ncclTopoGetAlgoTime), per version, on the same NcclCase as the ring's (algorithm_costs.h):
//   latency   = base + 2 x ((ranks per node - 1) x intra-node hop + floor(log2 nodes) x network hop)
//   bandwidth = bus bandwidth x efficiency (0.9, 0.92 from 2.8), capped, x protocol factor, x 1/2,
//               times a per-size correction factor (treeCorrectionFactor, 64 B to 256 MiB).
// The tree's search is assumed to find the ring's channels at the ring's bandwidth (NCCL takes the
// smaller channel count of the two graphs, init.cc).
#pragma once

#include "nccl_ring_model.h"

#include <cstdint>

namespace ringsim {

// NCCL's log2i: floor(log2 N), 0 for 0 and 1 (the tree's levels over N nodes in its models).
int nccl_log2i(int n);

// NCCL's model of its tree for one protocol. The correction factor and the bus efficiency are
// NCCL's empirical fits to its hardware; nccl_tree_core_time leaves both out (the tree's mechanics:
// latency + bytes / (bus bandwidth / 2)), which is what a simulation of the mechanics can match.
NcclPrediction nccl_tree_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes);
NcclPrediction nccl_tree_core_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes);

// The tree's network hop latency in NCCL's model of RELEASE under PROTOCOL (LL, LL128 or Simple), us.
double nccl_tree_net_hop_us(const NcclRelease& release, NcclProtocol protocol);

}  // namespace ringsim
