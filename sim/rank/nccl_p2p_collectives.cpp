// NCCL's alltoall and sendrecv as nccl-tests runs them (alltoall.cu: one group of a send and a receive
// with every rank, itself included; sendrecv.cu: send to rank + 1, receive from rank - 1), on NCCL's
// point-to-point schedule (nccl_p2p_schedule.h) as plain MPI:
// - Each send or receive of a round is cut into parts, one per channel of the round (the same channel
//   on both sides); a part is a stream of chunks, at most NCCL_STEPS = 8 in flight per connection
//   (receives posted that far ahead, sends synchronous so that a FIFO slot frees only once received).
// - The send to itself is a local copy (sendrecv.h's reduceCopy), free in simulated time.
// - Each channel is one thread block that copies every chunk it sends into the connection's FIFO: it
//   posts the chunks of all the channel's sends one after another, each at NcclP2pRun::block_Bps (NCCL's
//   own figure of what a channel moves, nccl_p2p_rules.h). Its receive warps copy out of the FIFO
//   beside them (sendrecv.h gives a work's send and receive their own warps); they are not paced.
// All rounds run at once: every operation of these calls fits in one batch of NCCL's kernel (at most 8
// per channel, p2pnChannels / p2pnChannelsPerPeer x 8 operations), which runs its works side by side.
// Routes are the platform's: under PXN a send to another rail already leaves through the NVLink peer
// beside that rail's NIC (platform_plan.h).
// Where the engine paces sends (pace_sends: maestro, S4U), each part goes as one message instead, at
// most at its thread block's rate shared by the channel's sends (block_Bps / sends on the channel): the
// network's solver then carries one flow per part, not up to 8 per part, and a call finishes in one
// message per part rather than one per chunk (N(N-1) x 8 flows at once at N ranks made 80 ranks take
// hours). The chunk-by-chunk schedule (NcclP2pRun::flow_per_chunk, SMPI) gives the same times within
// the bound docs/collectives.md states and tests/simulation/collectives_test.cpp holds.
#include "collectives.h"
#include "engine_probes.h"
#include "message_tags.h"
#include "nccl_p2p_schedule.h"
#include "timed_parts.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ringsim {
namespace {

constexpr int kNcclSteps = 8;  // NCCL_STEPS: FIFO slots per connection

// One channel's thread block on this rank: when it has copied the last chunk it was given to send.
struct ThreadBlock {
  double free_s = 0;
  double send_Bps = 0;  // 0: unpaced
  int sends = 0;        // the sends on this channel: a whole part's message flows at send_Bps / sends
};

// One part of one send or receive: its chunks over one channel's connection to one peer.
class Stream {
 public:
  // WHOLE: the part as one message (the engine paces it), else chunk by chunk.
  Stream(AllreduceContext& ctx, bool sends, int peer, int channel, float* data, std::size_t floats, std::size_t chunk_floats,
         ThreadBlock* block, bool whole)
      : ctx_(&ctx), sends_(sends), whole_(whole), peer_(peer), tag_(kNcclP2pTag + channel), data_(data), floats_(floats),
        chunk_floats_(whole ? std::max<std::size_t>(1, floats) : std::max<std::size_t>(1, chunk_floats)),
        chunks_(static_cast<long>((floats + chunk_floats_ - 1) / chunk_floats_)), block_(block) {
    requests_.fill(MPI_REQUEST_NULL);
  }

  // Receives post their first steps, and whole parts are sent, once the streams no longer move in memory.
  void start() {
    if (!sends_) {
      for (long k = 0; k < std::min<long>(kNcclSteps, chunks_); ++k) post_receive(k);
    } else if (whole_) {
      pace_sends(block_->send_Bps / block_->sends);
      ctx_->issend(data_, floats_, peer_, tag_, &request(0));
      done_ = chunks_;
    }
  }

  Blocked advance(double now_s) { return sends_ ? advance_send(now_s) : advance_receive(); }
  bool paced() const { return sends_ && !whole_ && block_->send_Bps > 0; }

 private:
  std::size_t chunk_length(long k) const {
    const std::size_t begin = static_cast<std::size_t>(k) * chunk_floats_;
    return std::min(chunk_floats_, floats_ - begin);
  }
  MPI_Request& request(long k) { return requests_[static_cast<std::size_t>(k % kNcclSteps)]; }

  void post_receive(long k) {
    ctx_->irecv(data_ + static_cast<std::size_t>(k) * chunk_floats_, chunk_length(k), peer_, tag_, &request(k));
  }

  Blocked advance_receive() {
    while (done_ < chunks_) {
      if (request(done_) != MPI_REQUEST_NULL) return {&request(done_)};
      if (done_ + kNcclSteps < chunks_) post_receive(done_ + kNcclSteps);
      ++done_;
    }
    return {};
  }

  Blocked advance_send(double now_s) {
    while (done_ < chunks_) {
      if (done_ >= kNcclSteps && request(done_) != MPI_REQUEST_NULL) return {&request(done_)};  // the slot's last chunk
      if (paced()) {
        if (!copied_) {  // the thread block copies this chunk after the others it was given
          posted_s_ = std::max(now_s, block_->free_s) + static_cast<double>(chunk_length(done_) * sizeof(float)) / block_->send_Bps;
          block_->free_s = posted_s_;
          copied_ = true;
        }
        if (now_s < posted_s_) return {nullptr, posted_s_};
      }
      ctx_->issend(data_ + static_cast<std::size_t>(done_) * chunk_floats_, chunk_length(done_), peer_, tag_, &request(done_));
      copied_ = false;
      ++done_;
    }
    for (long k = std::max<long>(0, chunks_ - kNcclSteps); k < chunks_; ++k)
      if (request(k) != MPI_REQUEST_NULL) return {&request(k)};
    return {};
  }

  AllreduceContext* ctx_;
  bool sends_, whole_;
  int peer_, tag_;
  float* data_;
  std::size_t floats_, chunk_floats_;
  long chunks_, done_ = 0;
  ThreadBlock* block_;
  std::array<MPI_Request, kNcclSteps> requests_{};
  double posted_s_ = 0;
  bool copied_ = false;
};

// One send or receive of this rank: COUNT floats at DATA with PEER.
struct P2pOperation {
  int peer;
  float* data;
  std::size_t count;
};

// Runs SENDS and RECEIVES (none with itself) on SCHEDULE's channels until every chunk has arrived.
void run_operations(const std::vector<P2pOperation>& sends, const std::vector<P2pOperation>& receives, const NcclP2pSchedule& schedule,
                    AllreduceContext& ctx) {
  const int me = ctx.rank;
  std::vector<ThreadBlock> blocks(static_cast<std::size_t>(schedule.channels()), ThreadBlock{0, ctx.nccl.p2p.block_Bps});
  struct Planned {
    bool sends;
    P2pOperation op;
    int round;
  };
  std::vector<Planned> planned;
  for (const P2pOperation& op : receives) planned.push_back({false, op, schedule.round_of(op.peer, me)});
  for (const P2pOperation& op : sends) planned.push_back({true, op, schedule.round_of(me, op.peer)});
  // In round order, as the kernel's batch lists its works.
  std::stable_sort(planned.begin(), planned.end(), [](const Planned& a, const Planned& b) { return a.round < b.round; });
  // Whole parts where the engine can pace them (pace_sends answers on every rank alike, so both ends agree).
  const bool whole = !ctx.nccl.p2p.flow_per_chunk && pace_sends(0);
  std::vector<Stream> streams;
  for (const Planned& p : planned) {
    if (p.op.count == 0) continue;
    const std::uint64_t bytes = p.op.count * sizeof(float);
    const int parts = schedule.parts_for(bytes);
    const std::size_t chunk_floats = schedule.chunk_for(bytes, me, p.op.peer) / sizeof(float);
    for (int part = 0; part < parts; ++part) {
      const Piece piece = NcclP2pSchedule::part_bounds(p.op.count, parts, part);
      if (piece.length == 0) continue;
      const int channel = schedule.channel_of(p.round, part);
      ThreadBlock& block = blocks[static_cast<std::size_t>(channel)];
      if (p.sends) ++block.sends;
      streams.emplace_back(ctx, p.sends, p.op.peer, channel, p.op.data + piece.start, piece.length, chunk_floats, &block, whole);
    }
  }
  for (Stream& stream : streams) stream.start();
  if (whole) pace_sends(0);
  run_together(streams);
}

}  // namespace

void nccl_p2p_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const std::size_t block = count / static_cast<std::size_t>(n);
  const auto at = [block](int p) { return static_cast<std::size_t>(p) * block; };
  ctx.kernels.copy(output + at(me), input + at(me), block);
  if (n == 1 || block == 0) return;
  const double start = StepLog::clock_s();
  std::vector<P2pOperation> sends, receives;
  for (int p = 0; p < n; ++p) {
    if (p == me) continue;
    sends.push_back({p, const_cast<float*>(input + at(p)), block});  // only read: the stream of a send never writes
    receives.push_back({p, output + at(p), block});
  }
  run_operations(sends, receives, NcclP2pSchedule(n, ctx.node_of_rank, ctx.nccl.p2p), ctx);
  ctx.log.record({StepPhase::exchange, 0, 0, (me + 1) % n, at(n - 1) * sizeof(float), start, StepLog::clock_s()});
}

void nccl_p2p_sendrecv(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  if (n == 1) return ctx.kernels.copy(output, input, count);
  const int to = (me + 1) % n, from = (me - 1 + n) % n;
  const double start = StepLog::clock_s();
  run_operations({{to, const_cast<float*>(input), count}}, {{from, output, count}}, NcclP2pSchedule(n, ctx.node_of_rank, ctx.nccl.p2p), ctx);
  ctx.log.record({StepPhase::exchange, 0, 0, from, count * sizeof(float), start, StepLog::clock_s()});
}

}  // namespace ringsim
