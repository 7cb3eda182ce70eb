// NCCL's own time model of PAT ("parallel aggregated trees"), its all-gather and reduce-scatter for
// one GPU per node (src/graph/tuning.cc, 2.23 on), on the same NcclCase as the ring's. PAT runs on the
// tree's graph (init.cc: graphs[NCCL_ALGO_PAT] is the tree's), which ringsim takes as the ring's
// search (nccl_tree_costs.h), under Simple only, and only where every node holds one rank
// (ncclPatEnable; NCCL_PAT_ENABLE unset, the network's data on the host):
//   bandwidth = search channels x bandwidth per channel x 0.85 (2.23) or 0.75 (2.24 on), taken as the
//               algorithm bandwidth of the call's whole size (tuning.cc converts no bus bandwidth of an
//               algorithm other than the ring for these two functions);
//   latency   = 8 + floor(log2 nodes) x network hop / 3.5 + 2.8 x ranks us, the network hop the
//               tree's under Simple with the plugin's latency added twice (nccl_network_hop_us): the
//               same in every release (8 is PAT's base latency, written into the sum to 2.27 and
//               taken from baseLatencies from 2.28).
#pragma once

#include "nccl_ring_model.h"

#include <cstdint>

namespace ringsim {

// Whether NCCL's model prices PAT for all-gather and reduce-scatter in case C: a release with PAT,
// at least two ranks, one on every node.
bool nccl_pat_possible(const NcclCase& c);

// NCCL's model of PAT all-gather or reduce-scatter of BYTES (the whole output or input, as nccl-tests'
// size column); requires nccl_pat_possible.
NcclPrediction nccl_pat_time(const NcclCase& c, std::uint64_t bytes);

}  // namespace ringsim
