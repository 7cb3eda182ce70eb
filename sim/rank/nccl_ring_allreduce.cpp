// NCCL's ring allreduce (device/all_reduce.h runRing over prims_simple.h / prims_ll*.h) as plain MPI,
// its halves, NCCL's ring reduce-scatter and all-gather (device/reduce_scatter.h, all_gather.h), and
// its ring opened at the root, NCCL's broadcast and reduce (device/broadcast.h, reduce.h).
// Unlike the MPI ring, it ignores rank order: each channel's ring is node-contiguous and enters and
// leaves each node beside that channel's NIC (nccl_channel_rings.h), so it crosses every node boundary
// once per direction. C channels each run their ring on their own share of the buffer. A channel
// walks its share in loops of N chunks; every loop is 2(N-1) transfers per rank (op t = 0 sends,
// ops 1..2N-3 receive, add or copy, and send on, op 2N-2 only receives), each cut into slices. A slice is forwarded as soon as it
// has arrived and been added, with at most NCCL_STEPS = 8 FIFO steps in flight per connection
// (receives are posted that many steps ahead). Sends in flight: across nodes as many, since the
// network proxy posts each step as it comes (net.cc); inside a node one, since the channel's thread
// block itself writes each slice to the peer (P2P) or to host memory (SHM), one after the other.
// Sends are synchronous (MPI_Issend: complete once received), so these windows hold at every size;
// MPI_Isend completes at once below SMPI's eager limit (64 KiB), where no window held: on two H100
// nodes busbw then fell 7% from 28 to 32 MiB, as Simple's slices reached 64 KiB.
// Protocols (NCCL's step sizes): Simple moves NCCL_BUFFSIZE/8 steps, 4-step chunks in 2-step slices;
// LL and LL128 move one step per slice with their flags on the wire (LL: 8 data bytes per 16-byte
// line; LL128: 120 per 128), which is how they trade bandwidth for latency.
// Each channel is one thread block of the GPU, a serial resource. Under Simple, once a slice has
// arrived and been added, the block fences and posts it, the peer polls for it (and across nodes the
// proxies post and complete it): the handshake, NcclRankSettings, a latency each slice pays on its way
// that the engine adds after the transfer (delay_deliveries) while the block moves on; on engines that
// cannot, the block spends it before each send. LL and LL128 post data and flag in one store, with no
// handshake; instead their thread block moves a slice's data at the protocol's pace (NcclRankSettings:
// NCCL's model's LL bandwidth is half what the flags on the wire leave before 2.21, the polling's share).
#include "buffer_pieces.h"

#include "allreduce.h"
#include "collectives.h"
#include "engine_probes.h"
#include "message_tags.h"
#include "rank_memory.h"
#include "nccl_channel_rings.h"
#include "timed_parts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ringsim {
namespace {

constexpr int kNcclSteps = 8;    // NCCL_STEPS: FIFO slots per connection
constexpr long kRingSlots = 4 * kNcclSteps;  // sends a channel keeps requests for: more than its window

struct WireFormat {
  std::size_t chunk_floats;      // data of one chunk (a loop is N chunks)
  std::size_t max_slice_floats;  // data of one slice
  std::size_t min_slice_floats;
  int slices_per_chunk;
  int steps_per_slice;
};

// Simple's chunk and slice in FIFO steps: ALLREDUCE_CHUNKSTEPS = NCCL_STEPS/2 and ALLREDUCE_SLICESTEPS
// = NCCL_STEPS/4 (all-gather and reduce-scatter alike); BROADCAST_ and REDUCE_CHUNKSTEPS and SLICESTEPS 1.
struct SimpleSteps {
  int chunk = kNcclSteps / 2;
  int slice = kNcclSteps / 4;
};

WireFormat format_of(const NcclRankSettings& settings, SimpleSteps steps) {
  if (settings.protocol == NcclWire::simple) {
    // Slices at least 1/32 of their steps (prims_simple.h).
    const std::size_t step = settings.buffsize / sizeof(float) / kNcclSteps;
    const auto slice = static_cast<std::size_t>(steps.slice) * step;
    return {static_cast<std::size_t>(steps.chunk) * step, slice, std::max<std::size_t>(1, slice / 32), steps.chunk / steps.slice,
            steps.slice};
  }
  // LL: 512 threads x 8 lines of 16 bytes per step, 8 data bytes per line: 32 KiB of data.
  // LL128: 640 threads x 120 8-byte words per step, 120 data bytes per 128: 576000 bytes of data.
  const std::size_t step = settings.protocol == NcclWire::ll ? (32u << 10) / sizeof(float) : 576000 / sizeof(float);
  return {step, step, 1, 1, 1};
}

// How fast one channel's thread block moves LL's or LL128's data, bytes per second (0: unpaced).
double protocol_pace_Bps(const AllreduceContext& ctx) {
  const double bus_Bps = ctx.nccl.protocol == NcclWire::ll ? ctx.nccl.ll_bus_Bps : ctx.nccl.protocol == NcclWire::ll128 ? ctx.nccl.ll128_bus_Bps : 0.0;
  return bus_Bps / std::max(1, ctx.nccl.channels);
}

// Bytes on the wire per byte of data (the flags).
double wire_per_data(NcclWire protocol) {
  return protocol == NcclWire::ll ? 2.0 : protocol == NcclWire::ll128 ? 128.0 / 120.0 : 1.0;
}

// Floats on the wire for LENGTH floats of data.
std::size_t wire_floats(NcclWire protocol, std::size_t length) {
  if (protocol == NcclWire::ll) return 2 * length;                       // a 4-byte flag per 4 data bytes
  if (protocol == NcclWire::ll128) return length + 2 * ((length + 29) / 30);  // 8 flag bytes per 120 data
  return length;
}

// One slice of one op of a channel's schedule.
struct Item {
  Piece piece;                   // the slice's data in the buffer
  int op = 0;                    // 0 .. 2N-2 within its loop
  int chunk = 0;                 // ring position whose chunk it is
  int slice = 0;                 // within its op
  long recv = -1;                // ordinal in the channel's receive stream, or -1
  long send = -1;                // ordinal in the channel's send stream, or -1
  long overwritten_send = -1;    // a copy into the buffer waits for this earlier send of the same data
};

// Broadcast's and reduce's chain: each channel's ring opened at the root. Broadcast starts at the root
// and ends at its left neighbour; reduce starts at its right neighbour and ends at the root, adding at
// every hop. Every rank runs one op per loop (one chunk).
struct Chain {
  int root = 0;
  bool reduce = false;
};

// A rank's op on a channel's chain: it receives unless the chain starts at it, sends unless it ends there.
struct ChainRole {
  bool receives = false;
  bool sends = false;
};

ChainRole chain_role(const Chain& chain, int rank, int left, int right) {
  if (chain.reduce) return {left != chain.root, rank != chain.root};
  return {rank != chain.root, right != chain.root};
}

// Which ops of the allreduce's 2N-1 a channel runs, and where a ring position's data lies. The
// allreduce runs them all on one buffer, each loop N consecutive chunks. Reduce-scatter runs ops 0..N-1
// (its last op receives and adds, sending nothing) and all-gather ops N-1..2N-2 (its first op sends the
// rank's own chunk, receiving nothing), on buffers of N blocks, one per rank (nccl-tests' layout): a
// loop is one chunk of every block, position j's in the block of the rank at ring position j. The
// chain runs one op (an adding one for reduce, a copying one for broadcast) on N blocks that are each
// the whole buffer, so that a loop is one chunk of it.
struct RingPass {
  int first_op = 0;
  int last_op = 0;                    // 2N-2 for the allreduce
  const std::vector<Piece>* blocks = nullptr;  // by rank; nullptr: the allreduce's one region
  SimpleSteps steps;
  std::optional<Chain> chain;         // broadcast's and reduce's: the ring opened at the root
};

class Channel {
 public:
  // ENGINE_PACES: the engine bounds the rank's sends to LL's or LL128's pace (pace_sends). ENGINE_DELAYS:
  // the engine delivers messages after a latency of their own (delay_deliveries).
  Channel(float* data, std::size_t count, Piece share, int channel, const std::vector<int>& ring, int position, AllreduceContext& ctx,
          bool engine_paces, bool engine_delays, RingPass pass)
      : data_(data), ctx_(ctx), pass_(pass), ring_(&ring), n_(static_cast<int>(ring.size())), position_(position), tag_(kNcclChannelTag + channel),
        left_(ring[(position + n_ - 1) % n_]), right_(ring[(position + 1) % n_]),
        role_(pass.chain ? chain_role(*pass.chain, ctx.rank, left_, right_) : ChainRole{}), format_(format_of(ctx.nccl, pass.steps)),
        slots_(kNcclSteps / format_.steps_per_slice), send_window_(sends_to_same_node(ctx) || pass.chain ? 1 : slots_),
        engine_delays_(engine_delays), delivery_delay_s_(engine_delays ? hop_latency_of(ctx) : 0.0),
        handshake_s_(engine_delays ? 0.0 : handshake_of(ctx)), block_Bps_(engine_paces ? 0.0 : protocol_pace_Bps(ctx)), next_(*this, share), behind_(*this, share), recv_lookup_(*this, share) {
    // One pass over the schedule for its totals; the schedule itself is walked by cursors, never stored
    // (about 4N items per channel and rank: N-squared memory over a run).
    std::size_t largest = 0;
    for (Cursor walk(*this, share); !walk.done(); walk.next()) {
      largest = std::max(largest, wire_floats(ctx.nccl.protocol, walk.item().piece.length));
      send_count_ = std::max(send_count_, walk.item().send + 1);
      recv_count_ = std::max(recv_count_, walk.item().recv + 1);
    }
    sends_.assign(static_cast<std::size_t>(std::min<long>(kRingSlots, std::max<long>(1, send_count_))), MPI_REQUEST_NULL);
    recvs_.assign(static_cast<std::size_t>(slots_), MPI_REQUEST_NULL);
    recv_posted_s_.assign(static_cast<std::size_t>(slots_), 0.0);
    slot_floats_ = std::max<std::size_t>(1, largest);
    // Received slices land in slots; LL and LL128 also stage what they send (data and flags). With
    // SMPI-shared buffers the values mean nothing: every slot is the shared scratch, as in other algorithms.
    if (!ctx.kernels.hold_values() && slot_floats_ <= count) {
      slot_stride_ = 0;
      slot_base_ = ctx.scratch;
    } else {
      const bool staged = ctx.nccl.protocol != NcclWire::simple;
      slot_memory_ = slot_memory(slot_floats_ * static_cast<std::size_t>(slots_) * (staged ? 2 : 1));
      slot_stride_ = slot_floats_;
      slot_base_ = slot_memory_.get();
    }
    for (long k = 0; k < std::min<long>(slots_, recv_count_); ++k) post_receive(k);
  }

  // Runs the schedule until it must wait (NOW_S: the simulated time, when its thread block's time may be due).
  Blocked advance(double now_s) {
    while (!next_.done()) {
      const Item& item = next_.item();
      if (!consumed_) {
        if (item.recv >= 0 && receive_request(item.recv) != MPI_REQUEST_NULL) return {&receive_request(item.recv)};
        if (item.overwritten_send >= 0 && in_flight(item.overwritten_send)) return {&send_request(item.overwritten_send)};
        // Across nodes up to NCCL_STEPS of a channel's sends in flight: over verbs as NCCL's IB transport
        // posts them, over a socket as one byte stream carries them back to back. Waiting for each send to
        // complete would charge every step the route's latency, which neither pays (and made the busbw
        // drop where slices cross SMPI's eager limit). Inside a node one: the thread block's own stores.
        // Several would each take a max-min share of a link the next hop also crosses (a GPU's port, a
        // PCIe switch's uplink) where NCCL's hop gets one: on the 8x4 IB nodes, staged through host memory,
        // that made busbw slide 10% from 128 MiB to 1 GiB as the hops' shares drifted.
        // On a chain one everywhere: its root holds every step at once, and steps in flight together would
        // share its link and arrive together, so the chain would advance in batches of 8 steps, where NCCL's
        // connection delivers them one after another. One at a time keeps that order; each step then pays
        // the route's latency.
        if (item.send >= send_window_ && in_flight(item.send - send_window_)) return {&send_request(item.send - send_window_)};
        if (item.recv >= 0) consume(item);
        consumed_ = true;
        // The thread block posts this slice after the previous one's and its own work on it.
        if (item.send >= 0 && paced()) posted_s_ = std::max(now_s, posted_s_) + block_work_s(item);
      }
      if (item.send >= 0 && paced() && now_s < posted_s_) return {nullptr, posted_s_};
      if (item.send >= 0) send(item);
      consumed_ = false;
      step();
    }
    return {};
  }
  // Whether the channel's slices wait for its thread block's time (a handshake or a pace).
  bool paced() const { return handshake_s_ > 0 || block_Bps_ > 0; }

  // Waits for the sends still in flight, oldest first (older ones have completed: see send_request).
  void finish() {
    std::vector<MPI_Request> last;
    for (long k = std::max<long>(0, sends_issued_ - static_cast<long>(sends_.size())); k < sends_issued_; ++k) last.push_back(send_request(k));
    MPI_Waitall(static_cast<int>(last.size()), last.data(), MPI_STATUSES_IGNORE);
  }

 private:
  bool reduces(int op) const { return op <= n_ - 1; }  // ops 1..N-1 add; N..2N-2 copy the result

  // Walks the channel's schedule item by item: its loops each cover N chunks of at most chunk_floats,
  // shortened on the last loop (rounded up to 4 floats, 16 bytes, as NCCL aligns them); every op of a
  // loop moves one chunk, cut into slices; receives and sends are numbered in schedule order.
  class Cursor {
   public:
    Cursor(const Channel& channel, Piece share) : channel_(&channel), loop_start_(share.start), end_(share.start + share.length) {
      if (loop_start_ >= end_ && channel.pass_.blocks != nullptr) {
        done_ = true;  // an empty share of blocks: nothing to move
        return;
      }
      start_loop();
    }
    bool done() const { return done_; }
    const Item& item() const { return item_; }
    void set_overwritten(long send) { item_.overwritten_send = send; }
    void next() {
      if (++slice_ < pieces_.size()) return set_item();
      slice_ = 0;
      if (++op_ <= channel_->pass_.last_op) return start_op();
      loop_start_ += (channel_->pass_.blocks != nullptr ? 1 : static_cast<std::size_t>(channel_->n_)) * chunk_;
      if (loop_start_ >= end_ || chunk_ == 0) {
        done_ = true;
        return;
      }
      start_loop();
    }

   private:
    void start_loop() {
      const std::size_t remaining = end_ - loop_start_;
      const std::size_t n = channel_->pass_.blocks != nullptr ? 1 : static_cast<std::size_t>(channel_->n_);
      chunk_ = std::min(channel_->format_.chunk_floats, (remaining + n - 1) / n);
      chunk_ = std::min(channel_->format_.chunk_floats, (chunk_ + 3) / 4 * 4);
      op_ = channel_->pass_.first_op;
      start_op();
    }
    void start_op() {
      const int n = channel_->n_;
      const int position = ((channel_->position_ - op_ - 1) % n + n) % n;
      if (const std::vector<Piece>* blocks = channel_->pass_.blocks) {
        // The chunk of the block of the rank at this ring position (blocks differ by a float at most).
        const Piece& block = (*blocks)[static_cast<std::size_t>((*channel_->ring_)[static_cast<std::size_t>(position)])];
        const std::size_t inside = std::min(block.length, loop_start_);
        channel_->slice(block.start + inside, std::min({chunk_, end_ - loop_start_, block.length - inside}), pieces_);
      } else {
        const std::size_t offset = std::min(end_, loop_start_ + static_cast<std::size_t>(position) * chunk_);
        channel_->slice(offset, std::min(chunk_, end_ - offset), pieces_);
      }
      chunk_position_ = position;
      set_item();
    }
    void set_item() {
      item_ = Item{pieces_[slice_], op_, chunk_position_, static_cast<int>(slice_)};
      const RingPass& pass = channel_->pass_;
      if (pass.chain ? channel_->role_.receives : op_ > pass.first_op) item_.recv = recvs_++;
      if (pass.chain ? channel_->role_.sends : op_ < pass.last_op) item_.send = sends_++;
    }

    const Channel* channel_;
    std::size_t loop_start_, end_, chunk_ = 0;
    int op_ = 0, chunk_position_ = 0;
    std::vector<Piece> pieces_;
    std::size_t slice_ = 0;
    long recvs_ = 0, sends_ = 0;
    Item item_;
    bool done_ = false;
  };

  // Moves on to the next item. A copy (ops N..2N-2) overwrites data that op - N sent: the same chunk,
  // sliced alike, so the cursor BEHIND, N ops back in the same loop, names that send.
  void step() {
    next_.next();
    if (next_.done()) return;
    const Item& item = next_.item();
    if (item.op == pass_.first_op && item.slice == 0) behind_ = next_;  // a new loop
    if (!reduces(item.op) && item.op - n_ >= pass_.first_op) {
      while (behind_.item().op != item.op - n_ || behind_.item().slice != item.slice) behind_.next();
      next_.set_overwritten(behind_.item().send);
    }
  }

  // prims' slicing: at most slices_per_chunk slices of max(ceil(length/slices), min_slice) floats
  // (rounded up to 16), never more than a step allows; an empty chunk still moves one empty slice.
  // PIECES is refilled (a cursor keeps its vector, so walking the schedule allocates nothing).
  void slice(std::size_t offset, std::size_t length, std::vector<Piece>& pieces) const {
    std::size_t size = (length + 16 * format_.slices_per_chunk - 1) / (16 * format_.slices_per_chunk) * 16;
    size = std::min(format_.max_slice_floats, std::max(size, format_.min_slice_floats));
    pieces.clear();
    std::size_t done = 0;
    do {
      const std::size_t piece = std::min(size, length - done);
      pieces.push_back({offset + done, piece});
      done += piece;
    } while (static_cast<int>(pieces.size()) < format_.slices_per_chunk && done < length);
  }

  float* receive_slot(long k) { return slot_base_ + static_cast<std::size_t>(k % slots_) * slot_stride_; }
  float* send_slot(long k) {
    return slot_base_ + (static_cast<std::size_t>(slots_) + static_cast<std::size_t>(k % slots_)) * slot_stride_;
  }

  void post_receive(long k) {
    // The k-th received slice is the k-th item that receives; items are in stream order.
    while (recv_lookup_.item().recv != k) recv_lookup_.next();
    const Item& item = recv_lookup_.item();
    if (ctx_.log.enabled()) recv_posted_s_[static_cast<std::size_t>(k % slots_)] = StepLog::clock_s();
    ctx_.irecv(receive_slot(k), wire_floats(ctx_.nccl.protocol, item.piece.length), left_, tag_, &receive_request(k));
  }

  void consume(const Item& item) {
    float* target = data_ + item.piece.start;
    if (reduces(item.op)) ctx_.kernels.sum_into(target, receive_slot(item.recv), item.piece.length);
    else ctx_.kernels.copy(target, receive_slot(item.recv), item.piece.length);
    if (ctx_.log.enabled())
      ctx_.log.record({reduces(item.op) ? StepPhase::scatter_reduce : StepPhase::allgather, item.op - 1, item.chunk, left_,
                       wire_floats(ctx_.nccl.protocol, item.piece.length) * sizeof(float), recv_posted_s_[static_cast<std::size_t>(item.recv % slots_)],
                       StepLog::clock_s()});
    if (item.recv + slots_ < recv_count_) post_receive(item.recv + slots_);
  }

  void send(const Item& item) {
    const float* source = data_ + item.piece.start;
    if (ctx_.nccl.protocol != NcclWire::simple) {
      ctx_.kernels.copy(send_slot(item.send), source, item.piece.length);  // the flags are not modelled as values
      source = send_slot(item.send);
    }
    if (engine_delays_) delay_deliveries(delivery_delay_s_);  // the rank's setting: this channel's connection
    ctx_.issend(source, wire_floats(ctx_.nccl.protocol, item.piece.length), right_, tag_, &send_request(item.send));
    sends_issued_ = item.send + 1;
  }

  bool sends_to_same_node(const AllreduceContext& ctx) const {
    const auto& nodes = ctx.node_of_rank;
    return !nodes.empty() && nodes[static_cast<std::size_t>(ctx.rank)] == nodes[static_cast<std::size_t>(right_)];
  }

  // Simple's handshake on this channel's send connection: inside the node or across nodes.
  double handshake_of(const AllreduceContext& ctx) const {
    if (ctx.nccl.protocol != NcclWire::simple) return 0;
    return sends_to_same_node(ctx) ? ctx.nccl.handshake_intra_s : ctx.nccl.handshake_net_s;
  }
  // The protocol's hop latency beyond the links' on this connection: Simple's handshake or LL128's.
  double hop_latency_of(const AllreduceContext& ctx) const {
    if (ctx.nccl.protocol != NcclWire::ll128) return handshake_of(ctx);
    return sends_to_same_node(ctx) ? ctx.nccl.ll128_hop_intra_s : ctx.nccl.ll128_hop_net_s;
  }

  // The thread block's own time on ITEM before its send may start: Simple's handshake, or the slice's
  // data at LL's or LL128's pace.
  double block_work_s(const Item& item) const {
    return handshake_s_ + (block_Bps_ > 0 ? static_cast<double>(item.piece.length * sizeof(float)) / block_Bps_ : 0.0);
  }

  float* data_;
  AllreduceContext& ctx_;
  RingPass pass_;
  const std::vector<int>* ring_;
  int n_, position_, tag_, left_, right_;
  ChainRole role_;  // on a chain (RingPass::chain)
  WireFormat format_;
  int slots_;  // slices in flight per connection: NCCL_STEPS / steps per slice
  long send_window_;  // sends of the channel in flight at once
  bool engine_delays_;
  double delivery_delay_s_;  // Simple's handshake or LL128's hop as each slice's latency to its receiver (0: none)
  double handshake_s_;      // Simple's handshake as the block's work per slice, before its send (0: none)
  double block_Bps_;        // LL's or LL128's pace as the block's time after arrival, data bytes per second (0: none)
  double posted_s_ = 0;     // when the thread block has posted the current slice
  bool consumed_ = false;   // the current item has been received and added; its send waits for posted_s_
  long send_count_ = 0, recv_count_ = 0;
  Cursor next_, behind_, recv_lookup_;  // the next item to run; the send a copy waits for; the next receive to post
  // Requests by ordinal, in rings: a receive k is posted once receive k - slots has been consumed; a
  // send k starts once send k - send_window has completed, so every send older than the ring (longer
  // than the window) has completed.
  std::vector<MPI_Request> sends_, recvs_;
  std::vector<double> recv_posted_s_;  // per receive slot
  MPI_Request& receive_request(long k) { return recvs_[static_cast<std::size_t>(k % slots_)]; }
  MPI_Request& send_request(long k) { return sends_[static_cast<std::size_t>(k) % sends_.size()]; }
  // Whether send K has not completed yet: the ring holds the latest sends; older ones are complete.
  bool in_flight(long k) {
    return k >= sends_issued_ - static_cast<long>(sends_.size()) && send_request(k) != MPI_REQUEST_NULL;
  }
  long sends_issued_ = 0;
  std::size_t slot_floats_ = 1;
  std::size_t slot_stride_ = 1;  // 0: every slot is the shared scratch
  float* slot_base_ = nullptr;
  SlotMemory slot_memory_;
};

}  // namespace

namespace {

// Runs PASS of NCCL's ring on DATA: SHARES (one per channel) of the buffer, or of each rank's block.
void run_ring_pass(float* data, std::size_t count, const std::vector<Piece>& shares, AllreduceContext& ctx, RingPass pass) {
  const std::vector<int> one_nic_per_node;
  const std::vector<std::vector<int>> rings = nccl_channel_rings(
      ctx.size, ctx.node_of_rank, ctx.rail_of_rank != nullptr ? *ctx.rail_of_rank : one_nic_per_node, static_cast<int>(shares.size()));
  // LL's and LL128's thread block writes its lines as it reads them, so a slice flows at the block's
  // pace (the engine bounds each send's rate) with no store-and-forward of that pace; where the engine
  // cannot bound a rate (SMPI), the block spends the slice's time after its arrival instead.
  const double pace_Bps = protocol_pace_Bps(ctx);
  const bool engine_paces = pace_Bps > 0 && pace_sends(pace_Bps * wire_per_data(ctx.nccl.protocol));
  // Simple's handshake, and LL128's hop beyond LL's, are latencies of every step, which each slice pays on
  // its way without holding its thread block (NCCL's model adds them per step, not per byte): the engine
  // delivers each slice that long after its transfer. Where the engine cannot (SMPI, S4U), the block
  // spends Simple's handshake before each send instead, and LL128 goes without.
  const bool simple_handshake = ctx.nccl.protocol == NcclWire::simple && (ctx.nccl.handshake_intra_s > 0 || ctx.nccl.handshake_net_s > 0);
  const bool ll128_hops = ctx.nccl.protocol == NcclWire::ll128 && (ctx.nccl.ll128_hop_intra_s > 0 || ctx.nccl.ll128_hop_net_s > 0);
  const bool engine_delays = (simple_handshake || ll128_hops) && delay_deliveries(0);
  std::vector<Channel> channels;
  channels.reserve(shares.size());
  for (std::size_t c = 0; c < shares.size(); ++c) {
    const std::vector<int>& ring = rings[c];
    const int position = static_cast<int>(std::find(ring.begin(), ring.end(), ctx.rank) - ring.begin());
    channels.emplace_back(data, count, shares[c], static_cast<int>(c), ring, position, ctx, engine_paces, engine_delays, pass);
  }

  run_together(channels);
  for (Channel& channel : channels) channel.finish();
  if (engine_paces) pace_sends(0);
  if (engine_delays) delay_deliveries(0);
}

}  // namespace

void nccl_ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size == 1) return;
  run_ring_pass(output, count, split_evenly(count, ctx.nccl.channels), ctx, {0, 2 * ctx.size - 2, nullptr, {}, std::nullopt});
}

// All-gather: the rank's piece into its block of the output, then the allreduce's copying half, each
// channel moving its share of every block (the first block's length: blocks differ by a float at most).
void nccl_ring_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size;
  const EvenPieces pieces(count, n);
  std::vector<Piece> blocks;
  for (int r = 0; r < n; ++r) blocks.push_back(pieces[r]);
  ctx.kernels.copy(output + pieces[ctx.rank].start, input, pieces[ctx.rank].length);
  if (n == 1) return;
  run_ring_pass(output, count, split_evenly(pieces[0].length, ctx.nccl.channels), ctx, {n - 1, 2 * n - 2, &blocks, {}, std::nullopt});
}

// Reduce-scatter: the allreduce's adding half on a copy of the input in the output; the rank's block,
// the sum, then moves to the front (through scratch: the two may overlap).
void nccl_ring_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size;
  const EvenPieces pieces(count, n);
  std::vector<Piece> blocks;
  for (int r = 0; r < n; ++r) blocks.push_back(pieces[r]);
  ctx.kernels.copy(output, input, count);
  if (n > 1) run_ring_pass(output, count, split_evenly(pieces[0].length, ctx.nccl.channels), ctx, {0, n - 1, &blocks, {}, std::nullopt});
  const Piece mine = pieces[ctx.rank];
  ctx.kernels.copy(ctx.scratch, output + mine.start, mine.length);
  ctx.kernels.copy(output, ctx.scratch, mine.length);
}

namespace {

// Broadcast or reduce (REDUCE) on the output: each channel's ring opened at rank 0 (nccl-tests' root), a
// chain of one op per loop on every rank (broadcast a copying op, reduce an adding one) whose loop is one
// chunk of one FIFO step (BROADCAST_ and REDUCE_CHUNKSTEPS), each channel on its share of the buffer.
void run_chain(float* output, std::size_t count, bool reduce, AllreduceContext& ctx) {
  const int n = ctx.size;
  const std::vector<Piece> whole(static_cast<std::size_t>(n), Piece{0, count});
  const int op = reduce ? 1 : n;
  run_ring_pass(output, count, split_evenly(count, ctx.nccl.channels), ctx, {op, op, &whole, {1, 1}, Chain{0, reduce}});
}

}  // namespace

void nccl_ring_broadcast(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.rank == 0) ctx.kernels.copy(output, input, count);
  if (ctx.size > 1) run_chain(output, count, false, ctx);
}

// Reduce: every rank adds what it receives to its own input, in the output, and passes the sum on;
// rank 0's is the whole sum.
void nccl_ring_reduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size > 1) run_chain(output, count, true, ctx);
}

}  // namespace ringsim
