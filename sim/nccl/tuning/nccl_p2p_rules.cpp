#include "nccl_p2p_rules.h"

#include "nccl_intra_search.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ringsim {
namespace {

int pow2_up(int x) { return static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(1, x)))); }

constexpr int kP2pPerBatch = 8;  // NCCL_MAX_DEV_WORK_P2P_PER_BATCH

int net_peer_channels(const NcclRelease& release, const NcclTopologyFacts& facts, int ranks, int p2p_channels) {
  constexpr int kNicsPerGpu = 1;  // the NICs beside one GPU that NCCL counts by bandwidth: ringsim's topologies have one
  switch (release.p2p_net_channels) {
    case NcclP2pNetChannels::two: return 2;
    case NcclP2pNetChannels::two_by_scale: {
      int channels = 2;
      while (channels * ranks > p2p_channels * 4 && channels > 1) channels /= 2;
      return std::max(kNicsPerGpu, channels);
    }
    case NcclP2pNetChannels::nic_rate: {
      const int nic_GBps = static_cast<int>(facts.nic_bandwidth_Bps / 1e9);  // NCCL's (int)netBw
      const int per_channel = static_cast<int>(kNcclP2pChannelBps / 1e9);
      return std::max(kNicsPerGpu, (nic_GBps + per_channel - 1) / per_channel);
    }
  }
  return 2;
}

}  // namespace

NcclP2pRun nccl_p2p_run(const NcclCase& c, const NcclTopologyFacts& facts, int local_ranks, std::uint64_t buffsize) {
  const NcclRelease& release = *c.release;
  int channels = c.channels;
  if (release.p2p_hopper_doubling && c.compute_capability >= 90 && c.nodes > 1 && c.channel_bandwidth_Bps > 45e9 && channels < 16)
    channels *= 2;
  NcclP2pRun run;
  run.channels = std::min(pow2_up(channels), 2 * kNcclMaxChannels);
  int per_peer = 1 << 30;
  if (local_ranks > 1) {
    if (c.nvlink) {
      const double link_GBps = nccl_nvlink_GBps(*c.release, c.compute_capability, 1);
      const int links = facts.nvlink_links > 0 ? facts.nvlink_links
                                               : std::max(1, static_cast<int>(std::lround(facts.intra_bandwidth_Bps / 1e9 / link_GBps)));
      per_peer = 2 * std::max(1, links);
    } else {
      per_peer = 2;
    }
  }
  if (c.nodes > 1) per_peer = std::min(per_peer, net_peer_channels(release, facts, c.ranks, run.channels));
  if (per_peer == 1 << 30) per_peer = 2;  // one rank: no peer
  per_peer = pow2_up(per_peer);
  if (release.p2p_fit_one_batch && c.nodes > 1) {
    while (per_peer * ((c.ranks + kP2pPerBatch - 1) / kP2pPerBatch) > run.channels && per_peer > 1) per_peer /= 2;
  } else {
    per_peer = std::min(per_peer, run.channels);
  }
  run.channels_per_peer = per_peer;
  run.chunk_bytes = c.nodes > 1 ? 128u << 10 : c.nvlink ? 512u << 10 : 128u << 10;
  run.chunk_bytes = std::min<std::uint64_t>(run.chunk_bytes, buffsize / 8);
  run.block_Bps = kNcclP2pChannelBps;
  return run;
}

}  // namespace ringsim
