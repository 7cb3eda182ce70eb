// NCCL's own time model of its NVLS allreduce on one NVSwitch node (src/graph/tuning.cc, per release),
// and what the simulation of it takes from NCCL's sources. With C NVLS channels of B GB/s each
// (nccl_nvls_search) and N ranks:
//   2.17       algbw = 0.75 x the ring's bus bandwidth (NVLS reads the ring's graph), latency 40 us
//   2.18       algbw = 0.75 x C x B,                                                    latency 23 us
//   2.19-2.20  algbw = 5/6 x C x B,                                                     latency 23 us
//   2.21-2.27  algbw = 5/6 x C x B,                                                     latency 25 us
//   2.28 on    bus bandwidth = C x B x efficiency x (C - 1) / C x 2, algbw = that x N / (2(N - 1)),
//              latency 25 us; efficiency 0.85 on Hopper, 0.74 on Blackwell (nvlsEfficiency).
// Its NVLS tree over M nodes (2.18 on), with bwInter I per head and R ranks:
//   2.18       algbw = C x (M <= 2 ? B : I) x 0.70 x M / (2(M - 1)), latency 23 + 2(M - 1) x 19 us
//   2.19-2.27  algbw = 5/6 x C x min(B, M <= 2 ? I : I/2), latency 23 or 25 + 2 floor(log2 M) x 14 us
//   2.28 on    bus bandwidth = C x min(B x efficiency x (C - 1)/C x 2, I x (M <= 2 ? 2 : 1), the
//              per-channel cap perChMaxNVLSTreeBw), algbw = that x R / (2(R - 1)),
//              latency 25 + 2 floor(log2 M) x 14 us (20.9 from 2.29).
// Its NVLS all-gather and reduce-scatter on one node (2.19 on; NcclNvlsCopyFormula): the bandwidth
// below taken as the algorithm bandwidth of the call's whole size (from 2.23 tuning.cc converts no
// bus bandwidth of an algorithm other than the ring for these two), latency the NVLS one:
//   2.19-2.22  5/6 x C x B;  2.23-2.26  C x B;  2.27  C x min(B (N-1)/N, 0.9 B);
//   2.28 on    C x B x efficiency x (C - 1)/C x (N - 1)/N (NVLS needs 2 channels).
#pragma once

#include "nccl_ring_model.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ringsim {

// Whether NCCL would enable NVLS on one node, or NVLS trees across nodes, for case C (NcclCase::nvls_channels).
inline bool nccl_nvls_possible(const NcclCase& c) { return c.nvls_channels > 0 && c.nodes == 1; }
inline bool nccl_nvls_tree_possible(const NcclCase& c) { return c.nvls_channels > 0 && c.nodes > 1; }
// Whether NCCL would run NVLS all-gather or reduce-scatter for case C: on one node, from 2.19 (across
// nodes it needs CollNet, which ringsim does not model: NCCL's model gives it no bandwidth there).
bool nccl_nvls_copy_possible(const NcclCase& c);

// NCCL's model of NVLS and of its NVLS tree (Simple, their only protocol) at BYTES; each requires
// the case to allow it.
NcclPrediction nccl_nvls_time(const NcclCase& c, std::uint64_t bytes);
NcclPrediction nccl_nvls_tree_time(const NcclCase& c, std::uint64_t bytes);
// NCCL's model of NVLS all-gather or reduce-scatter of BYTES (the whole output or input); requires
// nccl_nvls_copy_possible.
NcclPrediction nccl_nvls_copy_time(const NcclCase& c, std::uint64_t bytes);

// The share of a GPU's NVLink bandwidth NVLS's traffic gets, by GPU generation (tuning.cc's
// nvlsEfficiency from 2.28, the first version that states it): 0.85 Hopper, 0.74 Blackwell.
double nccl_nvls_efficiency(int compute_capability);

// NCCL's model's NVLS latency in RELEASE, seconds: what the simulation spends once per call.
double nccl_nvls_latency_s(const NcclRelease& release);

// What the rank program's NVLS takes (--nccl-nvls), where ALGORITHM runs it on PLACEMENT under MODEL:
// nccl_nvls and nccl_nvls_tree always, nccl where it may run NVLS or its tree. nullopt otherwise. Such
// runs need an engine that charges messages by the switch's traffic (s4u, maestro): auto takes maestro.
struct NcclNvlsRun {
  double efficiency = 1;
  double latency_s = 0;
};

}  // namespace ringsim
