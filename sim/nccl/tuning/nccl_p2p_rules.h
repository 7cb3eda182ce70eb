// NCCL's point-to-point setup per release (the release rows' p2p fields, nccl_releases.h), as paths.cc,
// connect.cc and init.cc compute it for a communicator, for the rank program's nccl_p2p (alltoall,
// sendrecv; sim/rank/nccl_p2p_schedule.h).
// NCCL's tuner has no time model for send and receive (tuning.cc prices collectives only), so there is
// no NCCL time beside these runs: only this schedule.
#pragma once

#include "nccl_ring_model.h"
#include "nccl_settings.h"
#include "../../rank/nccl_rank_settings.h"

#include <cstdint>

namespace ringsim {

// What one channel's thread block moves to one peer, bytes per second: NCCL_P2P_PER_CHANNEL_NET_BW's
// default (14 GB/s, paths.cc from 2.29), the figure NCCL sizes its channels per network peer by. It is
// applied to every release and to NVLink peers alike: the block's copy into the connection's FIFO
// is the same work.
inline constexpr double kNcclP2pChannelBps = 14e9;

// The p2p channels of case C (its ranks, nodes and channels), with LOCAL_RANKS the most ranks any node
// holds, on a platform of FACTS (the NIC beside each GPU, NVLink) with Simple's BUFFSIZE:
// - comm->nChannels: C's, doubled from 2.25 on Hopper and later across nodes below 16 channels where a
//   channel's bandwidth exceeds 45 GB/s (connect.cc: "4 compute channels per search channel");
// - p2pnChannels: that, rounded up to a power of 2;
// - p2pnChannelsPerPeer: the fewest any peer asks for (paths.cc ncclTopoGetNchannels): an NVLink peer
//   2 per link, a PCIe peer 2, a network peer 2 (up to 2.20), 2 halved while 2 x ranks > 4 x p2pnChannels
//   but at least the GPU's NICs (2.21-2.28), or the GPU's NIC rate over 14 GB/s rounded up (2.29 on);
//   rounded up to a power of 2, at most p2pnChannels; from 2.29 across nodes halved until every
//   peer's operation fits one batch (x ceil(ranks / 8) <= p2pnChannels);
// - p2pChunkSize: 128 KiB across nodes (P2P_NET_CHUNKSIZE), 512 KiB on one NVLink node (P2P_NVL_CHUNKSIZE),
//   else 128 KiB (P2P_PCI_CHUNKSIZE), at most BUFFSIZE / 8.
NcclP2pRun nccl_p2p_run(const NcclCase& c, const NcclTopologyFacts& facts, int local_ranks, std::uint64_t buffsize);

}  // namespace ringsim
