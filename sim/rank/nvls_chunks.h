// The chunks NCCL cuts its NVLS and NVLS tree allreduces into, per era (src/enqueue.cc,
// calcCollChunking): apart from the rank program so that unit tests hold them to hand-worked numbers
// without MPI.
#pragma once

#include "nccl_rank_settings.h"

#include <algorithm>
#include <cstddef>

namespace ringsim {

// enqueue.cc's concurrentOps: the chunks one round of the call moves, one per channel and head.
inline std::size_t nvls_concurrent_ops(const NcclRankSettings& nccl, int heads) {
  return static_cast<std::size_t>(std::max(1, nccl.channels)) * static_cast<std::size_t>(std::max(1, heads));
}

// nccl_nvls_tree's chunk per head and channel, floats, as NCCL's enqueue.cc (calcCollChunking) sizes it
// for an allreduce of BYTES over NODES nodes of HEADS GPUs on CHANNELS channels: a Simple step
// (NCCL_BUFFSIZE / 8) up to 2.20, NCCL_NVLS_CHUNKSIZE (128 KiB) from 2.21, at most 64 KiB from 4 nodes
// on (2.19 on), then halved while the call holds few chunks per head and channel (concurrentOps).
inline std::size_t nvls_tree_chunk_floats(const NcclRankSettings& nccl, int nodes, int heads, std::size_t bytes) {
  std::size_t chunk = static_cast<std::size_t>(nccl.rules.nvls_tree_chunk);
  if (nccl.rules.nvls_tree_64k_from_4_nodes && nodes >= 4) chunk = std::min<std::size_t>(chunk, 64u << 10);
  const std::size_t ops = nvls_concurrent_ops(nccl, heads);
  if (bytes < 32 * ops * chunk && chunk > (256u << 10)) chunk = 256u << 10;
  if (bytes < 16 * ops * chunk && chunk > (128u << 10)) chunk = 128u << 10;
  if (bytes < 4 * ops * chunk && chunk > (64u << 10)) chunk = 64u << 10;
  if (bytes < ops * chunk && chunk > (32u << 10)) chunk = 32u << 10;
  return std::max<std::size_t>(1, chunk / sizeof(float));
}

// nccl_nvls's chunk per head and channel, floats (enqueue.cc, NVLS on one node): at most
// NCCL_NVLS_CHUNKSIZE, 128 KiB, then 64 KiB below 64 (32 in 2.17) x channels x heads chunks of it, 32 KiB
// below 8 x, 16 KiB below 2 x.
inline std::size_t nvls_chunk_floats(const NcclRankSettings& nccl, int heads, std::size_t bytes) {
  std::size_t chunk = 128u << 10;
  const std::size_t ops = nvls_concurrent_ops(nccl, heads);
  if (bytes < static_cast<std::size_t>(nccl.rules.nvls_first_halving) * ops * chunk && chunk > (64u << 10)) chunk = 64u << 10;
  if (bytes < 8 * ops * chunk && chunk > (32u << 10)) chunk = 32u << 10;
  if (bytes < 2 * ops * chunk && chunk > (16u << 10)) chunk = 16u << 10;
  return chunk / sizeof(float);
}

}  // namespace ringsim
