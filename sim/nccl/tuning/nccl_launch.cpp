#include "nccl_launch.h"

namespace ringsim {

int nccl_max_threads(const NcclCase& c, NcclAlgorithmKind algorithm, NcclProtocol protocol) {
  if (protocol == NcclProtocol::ll) return 512;     // NCCL_LL_MAX_NTHREADS (NCCL_MAX_NTHREADS in 2.4-2.6)
  if (protocol == NcclProtocol::ll128) return 640;  // NCCL_LL128_MAX_NTHREADS
  if (algorithm != NcclAlgorithmKind::ring) return 512;  // NCCL_SIMPLE_MAX_NTHREADS
  const double search_GBps = c.channel_bandwidth_Bps / 1e9 * c.search_channels;
  return search_GBps <= 12.0 ? 256 : 512;  // PCI_BW (PCI_WIDTH before 2.7)
}

int nccl_launch_channels(const NcclCase& c, NcclAlgorithmKind algorithm, NcclProtocol protocol, std::uint64_t bytes) {
  if (!c.release->time_model) return protocol == NcclProtocol::ll ? nccl24_ll_channels(c, bytes) : c.channels;
  const std::uint64_t per_thread = protocol == NcclProtocol::simple ? 64 : 8;
  const std::uint64_t threshold =
      per_thread * (algorithm == NcclAlgorithmKind::ring && protocol == NcclProtocol::ll ? static_cast<std::uint64_t>(c.ranks) : 1);
  const std::uint64_t threads = static_cast<std::uint64_t>(nccl_max_threads(c, algorithm, protocol));
  int channels = c.channels;
  while (channels >= 2 && bytes < static_cast<std::uint64_t>(channels) * threads * threshold) --channels;
  return channels;
}

int nccl_nvls_launch_channels(const NcclCase& c) {
  if (c.compute_capability < 100) return c.release->nvls_launch_channels;
  return c.release->nvls_launch_channels_sm100[c.nodes == 1 ? 0 : 1];
}

}  // namespace ringsim
