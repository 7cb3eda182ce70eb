// NCCL's point-to-point schedule for one communicator, as its sources lay it out (MPI-free, shared by
// the rank program's nccl_p2p and the tests):
// - init.cc p2pSchedule: round k of rank r sends to one peer and receives from another. Ranks are
//   grouped by node (every node holding as many ranks; otherwise each rank is a group); group deltas
//   run in the quadratic order (x*x+x)/2 mod pow2Up(groups), and within each, local deltas 0..size-1.
//   The rank r sends to in a round receives from r in the same round.
// - channel.h ncclP2pChannelBaseForRound and device.h ncclP2pChannelForPart: the channels of a round's
//   operation, the bit-reversed base plus the part, mod p2pnChannels.
// - enqueue.cc addP2pToPlan: how many channels (parts) one send or receive of a size takes, between
//   the communicator's nChannelsMin and p2pnChannelsPerPeer, and its chunk (the network's smaller for
//   small operations); device.h ncclP2pPartBounds: each part's bytes, aligned to 4 KiB.
#pragma once

#include "buffer_pieces.h"
#include "nccl_rank_settings.h"

#include <cstdint>
#include <vector>

namespace ringsim {

class NcclP2pSchedule {
 public:
  // SIZE ranks; NODE_OF_RANK: node index of every rank (empty: one rank per node); RUN: the channels
  // (RUN.channels 0: 2 channels, 2 per peer).
  NcclP2pSchedule(int size, const std::vector<int>& node_of_rank, const NcclP2pRun& run);

  // The round in which SENDER sends to RECEIVER (and RECEIVER receives from SENDER): 0 .. size-1, 0 itself.
  int round_of(int sender, int receiver) const;
  // The channel of PART of round ROUND's operation.
  int channel_of(int round, int part) const;
  // The channels (parts) one send or receive of BYTES takes.
  int parts_for(std::uint64_t bytes) const;
  // Part PART of PARTS of COUNT floats (ncclP2pPartBounds: parts of ceil(bytes / parts) rounded up to 4 KiB).
  static Piece part_bounds(std::size_t count, int parts, int part);
  // The chunk of one send or receive of BYTES between ranks A and B, bytes (Simple).
  std::uint64_t chunk_for(std::uint64_t bytes, int a, int b) const;
  bool across_nodes(int a, int b) const { return node_[static_cast<std::size_t>(a)] != node_[static_cast<std::size_t>(b)]; }
  int channels() const { return channels_; }

 private:
  int size_, nodes_, group_size_, groups_, channels_, per_peer_, min_per_op_;
  std::uint64_t chunk_;
  std::vector<int> node_, group_, local_;
  std::vector<int> delta_position_;  // a group delta's position in the quadratic order
};

}  // namespace ringsim
