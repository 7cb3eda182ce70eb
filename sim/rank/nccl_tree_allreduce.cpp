// NCCL's double binary tree allreduce (device/all_reduce.h runTreeUpDown, runTreeSplit; the trees of nccl_trees.h)
// as plain MPI. Each channel takes its share of the buffer and walks it in chunks: first the
// reduction up its tree (a leaf sends each chunk to its parent; an inner rank receives the chunk
// from every child, adds them to its own and sends the sum on; the root keeps the total), then the
// broadcast down (each rank receives the total from its parent and sends it to every child), one
// after the other or side by side as the version runs them (splits below). Each
// connection holds up to NCCL_STEPS = 8 chunks in flight: receives are posted that many ahead and a
// sender waits for its eighth-last send to the same peer. The first half of the channels run tree 0,
// the second half tree 1, so each tree carries half the data.
// Chunks (src/enqueue.cc, computeColl): Simple moves one NCCL_BUFFSIZE/8 step per chunk, halved while
// a channel would get fewer than 8, 4, 1 chunks per tree level (down to 128, 64, 32 KiB); LL and
// LL128 one step of their own size, with their flags on the wire as in nccl_ring.
// A hop to another node costs the tree more than it costs the ring: NCCL's model gives the tree's
// network hop 5.0 us under LL (8.5 under LL128 from 2.7) where the ring's step costs 0.9 (2.5-2.6) or
// 2.7 (4.0); the link latencies the simulation shares with the ring carry the ring's. The thread block
// sending a chunk to another node spends the difference on it first (NcclRankSettings::tree_hop_*).
#include "buffer_pieces.h"

#include "allreduce.h"
#include "message_tags.h"
#include "rank_memory.h"
#include "nccl_channel_rings.h"
#include "nccl_trees.h"
#include "timed_parts.h"

#include <algorithm>
#include <set>
#include <utility>

namespace ringsim {
namespace {

constexpr int kTreeFifoSteps = 8;  // NCCL_STEPS: FIFO slots per connection

// Floats on the wire for LENGTH floats of data (LL: a flag per 4 bytes; LL128: 8 flag bytes per 120).
std::size_t tree_wire_floats(NcclWire protocol, std::size_t length) {
  if (protocol == NcclWire::ll) return 2 * length;
  if (protocol == NcclWire::ll128) return length + 2 * ((length + 29) / 30);
  return length;
}

// Floats of one chunk for BYTES in total over CHANNELS channels of a tree of depth DEPTH.
std::size_t tree_chunk_floats(const NcclRankSettings& settings, std::uint64_t bytes, int depth) {
  if (settings.protocol == NcclWire::ll) return (32u << 10) / sizeof(float);
  if (settings.protocol == NcclWire::ll128) return 576000 / sizeof(float);
  std::uint64_t chunk = settings.buffsize / kTreeFifoSteps;
  const std::uint64_t per_channel = bytes / static_cast<std::uint64_t>(settings.channels);
  const auto halve_while = [&](std::uint64_t levels, std::uint64_t floor_bytes) {
    while (per_channel / chunk < static_cast<std::uint64_t>(depth) * levels && chunk > floor_bytes) chunk /= 2;
  };
  halve_while(8, 128u << 10);
  halve_while(4, 64u << 10);
  halve_while(1, 32u << 10);
  return std::max<std::size_t>(1, chunk / sizeof(float));
}

// Whether the reduction and the broadcast run side by side (runTreeSplit): LL128 always, Simple from
// 2.8, LL from 2.10; before, runTreeUpDown (all_reduce.h of each version).
bool splits(const NcclRankSettings& settings) {
  if (settings.protocol == NcclWire::ll128) return true;
  if (settings.protocol == NcclWire::simple) return settings.rules.tree_split_simple;
  return settings.rules.tree_split_ll;
}

// One direction of one connection: a stream of messages, one per chunk.
struct TreeStream {
  int peer = -1;
  std::vector<MPI_Request> requests;
};

class TreeChannel {
 public:
  TreeChannel(float* data, std::size_t count, Piece share, int channel, const RankTreeLinks& links, std::size_t chunk,
              AllreduceContext& ctx)
      : data_(data), ctx_(ctx), links_(links), tag_(kNcclTreeChannelTag + channel), split_(splits(ctx.nccl)),
        hop_s_(ctx.nccl.protocol == NcclWire::ll ? ctx.nccl.tree_hop_ll_s : ctx.nccl.protocol == NcclWire::ll128 ? ctx.nccl.tree_hop_ll128_s : 0) {
    const bool parent_away = !root() && away(links.parent);
    const bool child_away = std::any_of(links.children.begin(), links.children.end(), [&](int child) { return away(child); });
    up_crosses_ = parent_away || (root() && split_ && child_away);
    down_crosses_ = child_away;
    for (std::size_t done = 0; done < share.length || chunks_.empty(); done += chunk) {
      chunks_.push_back({share.start + done, std::min(chunk, share.length - done)});
      if (share.length == 0) break;
    }
    const long k = static_cast<long>(chunks_.size());
    // Receive streams: each child's partial sums (up), the parent's totals (down); send streams the reverse.
    for (int child : links.children) receives_.push_back({child, std::vector<MPI_Request>(k, MPI_REQUEST_NULL)});
    if (links.parent != -1) receives_.push_back({links.parent, std::vector<MPI_Request>(k, MPI_REQUEST_NULL)});
    if (links.parent != -1) sends_.push_back({links.parent, std::vector<MPI_Request>(k, MPI_REQUEST_NULL)});
    for (int child : links.children) sends_.push_back({child, std::vector<MPI_Request>(k, MPI_REQUEST_NULL)});
    const std::size_t slot = std::max<std::size_t>(1, tree_wire_floats(ctx.nccl.protocol, chunk_length_max()));
    if (!ctx.kernels.hold_values() && slot <= count) {
      slot_stride_ = 0;  // SMPI-shared buffers: every slot is the shared scratch
      slot_base_ = ctx.scratch;
    } else {
      // A stream uses only as many of its FIFO's slots as the channel has chunks.
      fifo_slots_ = static_cast<std::size_t>(std::min<long>(kTreeFifoSteps, k));
      const std::size_t slots = receives_.size() * fifo_slots_ + (ctx.nccl.protocol == NcclWire::simple ? 0 : sends_.size() * fifo_slots_);
      slot_memory_ = slot_memory(std::max<std::size_t>(1, slots) * slot);
      slot_stride_ = slot;
      slot_base_ = slot_memory_.get();
    }
    for (std::size_t s = 0; s < receives_.size(); ++s)
      for (long c = 0; c < std::min<long>(kTreeFifoSteps, k); ++c) post_receive(s, c);
  }

  // Split (NCCL's runTreeSplit): the reduction and the broadcast run side by side as two parts of
  // the channel, the root sending each total down as soon as it has it; else (runTreeUpDown) one
  // part: the whole reduction, then the whole broadcast.
  int parts() const { return split_ ? 2 : 1; }

  // Runs part PART until it must wait (NOW_S: the simulated time, when a hop's time may be due).
  Blocked advance(int part, double now_s) {
    if (part == 0) {
      if (const Blocked blocked = advance_up(now_s); !blocked.done()) return blocked;
      if (split_) return {};
    }
    return advance_down(now_s);
  }
  // Whether a part may wait for a time: a chunk's hop to another node.
  bool paced() const { return hop_s_ > 0 && (up_crosses_ || down_crosses_); }

  void finish() {
    for (TreeStream& stream : sends_)
      MPI_Waitall(static_cast<int>(stream.requests.size()), stream.requests.data(), MPI_STATUSES_IGNORE);
  }

 private:
  bool root() const { return links_.parent == -1; }
  // Whether PEER runs on another node (every peer, when the nodes are unknown).
  bool away(int peer) const {
    const auto& nodes = ctx_.node_of_rank;
    return nodes.empty() || nodes[static_cast<std::size_t>(peer)] != nodes[static_cast<std::size_t>(ctx_.rank)];
  }
  std::size_t first_child_send() const { return root() ? 0 : 1; }

  // Chunk by chunk: receive every child's partial sum and add it; send the sum to the parent, or at
  // the root in split mode the total straight down to the children.
  Blocked advance_up(double now_s) {
    const long k = static_cast<long>(chunks_.size());
    const std::size_t children = links_.children.size();
    const bool down_from_root = root() && split_;
    for (; up_next_ < k; ++up_next_) {
      const long c = up_next_;
      const Piece piece = chunks_[static_cast<std::size_t>(c)];
      if (!up_ready_) {
        for (std::size_t s = 0; s < children; ++s)
          if (receives_[s].requests[c] != MPI_REQUEST_NULL) return {&receives_[s].requests[c]};
        if (!root())
          if (MPI_Request* window = send_window(0, c)) return {window};
        if (down_from_root)
          for (std::size_t s = first_child_send(); s < sends_.size(); ++s)
            if (MPI_Request* window = send_window(s, c)) return {window};
        for (std::size_t s = 0; s < children; ++s) consume(s, c, piece, true);
        up_ready_ = true;
        if (hop_s_ > 0 && up_crosses_) up_due_s_ = std::max(now_s, up_due_s_) + hop_s_;
      }
      if (hop_s_ > 0 && up_crosses_ && now_s < up_due_s_) return {nullptr, up_due_s_};
      if (!root()) send(0, c, piece);
      if (down_from_root)
        for (std::size_t s = first_child_send(); s < sends_.size(); ++s) send(s, c, piece);
      up_ready_ = false;
    }
    return {};
  }

  // Chunk by chunk: receive the total from the parent and pass it to every child (the root, when
  // not split, sends what its reduction left).
  Blocked advance_down(double now_s) {
    const long k = static_cast<long>(chunks_.size());
    if (root() && split_) return {};  // the reduction part sent everything down
    const std::size_t children = links_.children.size();
    for (; down_next_ < k; ++down_next_) {
      const long c = down_next_;
      const Piece piece = chunks_[static_cast<std::size_t>(c)];
      if (!down_ready_) {
        if (!root()) {
          TreeStream& from_parent = receives_[children];
          if (from_parent.requests[c] != MPI_REQUEST_NULL) return {&from_parent.requests[c]};
          // The chunk's partial sum may still be on its way up from this buffer (not split: the same
          // part; split: the parent had it before the total could come back, so it has left).
          if (!split_ && sends_[0].requests[c] != MPI_REQUEST_NULL) return {&sends_[0].requests[c]};
        }
        for (std::size_t s = first_child_send(); s < sends_.size(); ++s)
          if (MPI_Request* window = send_window(s, c)) return {window};
        if (!root()) consume(children, c, piece, false);
        down_ready_ = true;
        if (hop_s_ > 0 && down_crosses_) down_due_s_ = std::max(now_s, down_due_s_) + hop_s_;
      }
      if (hop_s_ > 0 && down_crosses_ && now_s < down_due_s_) return {nullptr, down_due_s_};
      for (std::size_t s = first_child_send(); s < sends_.size(); ++s) send(s, c, piece);
      down_ready_ = false;
    }
    return {};
  }

  std::size_t chunk_length_max() const {
    std::size_t largest = 0;
    for (const Piece& piece : chunks_) largest = std::max(largest, piece.length);
    return largest;
  }

  // Chunk C's slot in its stream's FIFO (C % NCCL_STEPS < fifo_slots_: fewer slots only for fewer chunks).
  float* receive_slot(std::size_t stream, long c) {
    return slot_base_ + (stream * fifo_slots_ + static_cast<std::size_t>(c % kTreeFifoSteps)) * slot_stride_;
  }
  float* send_slot(std::size_t stream, long c) {
    return slot_base_ + ((receives_.size() + stream) * fifo_slots_ + static_cast<std::size_t>(c % kTreeFifoSteps)) * slot_stride_;
  }

  void post_receive(std::size_t stream, long c) {
    const std::size_t length = tree_wire_floats(ctx_.nccl.protocol, chunks_[static_cast<std::size_t>(c)].length);
    ctx_.irecv(receive_slot(stream, c), length, receives_[stream].peer, tag_, &receives_[stream].requests[c]);
  }

  // At most NCCL_STEPS sends to one peer in flight: the one this send would exceed, if still pending.
  MPI_Request* send_window(std::size_t stream, long c) {
    if (c < kTreeFifoSteps) return nullptr;
    MPI_Request& oldest = sends_[stream].requests[c - kTreeFifoSteps];
    return oldest != MPI_REQUEST_NULL ? &oldest : nullptr;
  }

  void consume(std::size_t stream, long c, const Piece& piece, bool reduce) {
    float* target = data_ + piece.start;
    if (reduce) ctx_.kernels.sum_into(target, receive_slot(stream, c), piece.length);
    else ctx_.kernels.copy(target, receive_slot(stream, c), piece.length);
    if (ctx_.log.enabled()) {
      const double now = StepLog::clock_s();
      ctx_.log.record({reduce ? StepPhase::reduce : StepPhase::broadcast, static_cast<int>(c), static_cast<int>(c),
                       receives_[stream].peer, tree_wire_floats(ctx_.nccl.protocol, piece.length) * sizeof(float), now, now});
    }
    if (c + kTreeFifoSteps < static_cast<long>(chunks_.size())) post_receive(stream, c + kTreeFifoSteps);
  }

  void send(std::size_t stream, long c, const Piece& piece) {
    const float* source = data_ + piece.start;
    if (ctx_.nccl.protocol != NcclWire::simple) {
      ctx_.kernels.copy(send_slot(stream, c), source, piece.length);  // the flags are not modelled as values
      source = send_slot(stream, c);
    }
    ctx_.isend(source, tree_wire_floats(ctx_.nccl.protocol, piece.length), sends_[stream].peer, tag_,
               &sends_[stream].requests[c]);
  }

  float* data_;
  AllreduceContext& ctx_;
  RankTreeLinks links_;
  int tag_;
  std::vector<Piece> chunks_;
  std::vector<TreeStream> receives_, sends_;  // receives: children then parent; sends: parent then children
  bool split_;
  double hop_s_;  // the thread block's time per chunk sent to another node (0: none)
  bool up_crosses_ = false, down_crosses_ = false;  // whether the reduction's, the broadcast's sends leave the node
  // Per part: the current chunk has been received and added; when the block has spent its hop on it.
  bool up_ready_ = false, down_ready_ = false;
  double up_due_s_ = 0, down_due_s_ = 0;
  long up_next_ = 0, down_next_ = 0;
  std::size_t slot_stride_ = 1;
  std::size_t fifo_slots_ = kTreeFifoSteps;  // slots per stream
  float* slot_base_ = nullptr;
  SlotMemory slot_memory_;
};

// One part of a channel, as run_together runs it.
struct TreePart {
  TreeChannel* channel;
  int part;
  Blocked advance(double now_s) { return channel->advance(part, now_s); }
  bool paced() const { return channel->paced(); }
};

}  // namespace

void nccl_tree_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size == 1) return;
  const std::set<int> distinct(ctx.node_of_rank.begin(), ctx.node_of_rank.end());
  const int nodes = ctx.node_of_rank.empty() ? ctx.size : static_cast<int>(distinct.size());
  const std::size_t chunk = tree_chunk_floats(ctx.nccl, count * sizeof(float), nccl_tree_depth(ctx.size, nodes));
  const std::vector<Piece> shares = split_evenly(count, ctx.nccl.channels);
  // Each channel's chains start beside its NIC, as its ring does, so the channels spread a node's
  // network traffic over its NICs.
  const std::vector<int> one_nic_per_node;
  const std::vector<std::vector<int>> rings = nccl_channel_rings(
      ctx.size, ctx.node_of_rank, ctx.rail_of_rank != nullptr ? *ctx.rail_of_rank : one_nic_per_node, static_cast<int>(shares.size()));
  std::vector<TreeChannel> channels;
  channels.reserve(shares.size());
  std::vector<RankTreeLinks> mine;  // this rank's links per channel; channels with the same tree and ring share them
  mine.reserve(shares.size());
  for (std::size_t c = 0; c < shares.size(); ++c) {
    const int tree = nccl_tree_of_channel(static_cast<int>(c), static_cast<int>(shares.size()));
    std::size_t same = 0;
    while (same < c && !(nccl_tree_of_channel(static_cast<int>(same), static_cast<int>(shares.size())) == tree && rings[same] == rings[c])) ++same;
    if (same < c) mine.push_back(mine[same]);
    else mine.push_back(nccl_tree_links(ctx.size, ctx.node_of_rank, tree, rings[c])[static_cast<std::size_t>(ctx.rank)]);
    channels.emplace_back(output, count, shares[c], static_cast<int>(c), mine[c], chunk, ctx);
  }
  // The channels' parts progress together, as NCCL's thread blocks (and their halves) do.
  std::vector<TreePart> parts;
  for (TreeChannel& channel : channels)
    for (int part = 0; part < channel.parts(); ++part) parts.push_back({&channel, part});
  run_together(parts);
  for (TreeChannel& channel : channels) channel.finish();
}

}  // namespace ringsim
