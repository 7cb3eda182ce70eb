// What nccl_nvls (all-reduce, all-gather, reduce-scatter) and nccl_nvls_tree share: how many steps
// they keep in flight (their chunks: nvls_chunks.h), what a message inside a node weighs on NVLink, and
// how a call starts.
#pragma once

#include "allreduce.h"
#include "engine_probes.h"
#include "nvls_chunks.h"

#include <cstddef>
#include <cstdio>

namespace ringsim {

inline constexpr int kNvlsStepsInFlight = 4;
// Across nodes, the steps each tree connection holds (NCCL_STEPS): a rank takes that many steps up
// ahead of the last its parent has taken, and as many down.
inline constexpr int kNvlsTreeStepsPerHop = 8;

// Bytes on NVLink per byte of a message between two of a node's GPUS ranks: 2(G-1) messages of a shard
// per port and direction stand for the G + 1 shards NVLS puts there, at NCCL's NVLS efficiency.
inline double nvls_wire_per_byte(int gpus, const NcclRankSettings& nccl) {
  const double efficiency = nccl.nvls_efficiency > 0 ? nccl.nvls_efficiency : 1.0;
  return gpus > 1 ? (gpus + 1.0) / (2.0 * (gpus - 1) * efficiency) : 1.0;
}

// Bytes on NVLink per byte of a message of NVLS all-gather or reduce-scatter: N-1 messages of a block
// per port and direction stand for the N-1 blocks the switch delivers to (all-gather) or reads from
// (reduce-scatter) each GPU, at NCCL's NVLS efficiency.
inline double nvls_copy_wire_per_byte(const NcclRankSettings& nccl) {
  return nccl.nvls_efficiency > 0 ? 1.0 / nccl.nvls_efficiency : 1.0;
}

// Charges the calling rank's sends at WIRE_PER_BYTE from now on (not with one rank of GPUS) and spends
// NCCL's NVLS latency (the multicast barrier). Under a real MPI the messages are what they are; a
// simulator whose engine cannot charge them (SMPI) stops the run with one line naming ALGORITHM.
inline void start_weighed_nvls_call(const char* algorithm, int gpus, double wire_per_byte, AllreduceContext& ctx) {
  if (gpus > 1 && !scale_sends(wire_per_byte) && simulated_clock_s().has_value()) {
    if (ctx.rank == 0)
      std::fprintf(stderr, "ringsim-rank: %s needs the s4u or maestro engine: SMPI cannot charge a message other than its size\n", algorithm);
    MPI_Abort(ctx.comm, 2);
  }
  if (ctx.nccl.nvls_latency_s > 0) sleep_simulated(ctx.nccl.nvls_latency_s);
}

// The allreduce's call: its messages inside a node of GPUS ranks weighed as nvls_wire_per_byte says.
inline void start_nvls_call(const char* algorithm, int gpus, AllreduceContext& ctx) {
  start_weighed_nvls_call(algorithm, gpus, nvls_wire_per_byte(gpus, ctx.nccl), ctx);
}

}  // namespace ringsim
