// NCCL's PAT all-gather and reduce-scatter (NCCL 2.23 on, Simple, one GPU per node; device/all_gather.h
// and reduce_scatter.h, NCCL_ALGO_PAT) as plain MPI: the binomial trees of pat_schedule.h, on every
// channel and in NCCL's chunks. Each channel takes its share of every rank's block (as the ring's
// channels do); the share goes in chunks of NCCL's PAT chunk size (nccl_pat_chunk_bytes), and each chunk
// runs the whole tree: every block's chunk is one message on one edge, as each of NCCL's PAT steps
// moves one block's chunk (the packing of several blocks into one FIFO step of small calls is not
// modelled). The channels go side by side, each sending in its order as soon as the data is in hand,
// with as many chunk steps in flight as its busiest connection's FIFO holds: NCCL_STEPS (8) FIFO
// steps over the most blocks one chunk step sends on one dimension.
//
// All-gather receives every block straight into the output and passes on what it holds; reduce-scatter
// receives each partial sum into a slot, adds it to its copy of the block, and passes the block on once
// every contribution to it is in.
#include "buffer_pieces.h"
#include "collectives.h"
#include "message_tags.h"
#include "pat_schedule.h"
#include "rank_memory.h"

#include <algorithm>
#include <vector>

namespace ringsim {
namespace {

// What both collectives share: the blocks, the channels, the chunk, the chunks per channel, the
// schedule's offsets per dimension and how many chunks are in flight.
struct PatPlan {
  int n = 1;
  std::vector<Piece> blocks;
  int channels = 1;
  std::size_t chunk = 1;     // floats
  std::size_t steps = 0;     // chunks of the longest channel share
  std::vector<std::vector<int>> sent;  // pat_offsets_sent per dimension
  std::vector<std::size_t> first;      // the index of each dimension's first offset among all N-1
  std::size_t in_flight = 1;

  // The part of block (RANK + OFFSET) that CHANNEL moves at STEP (empty past its end).
  Piece piece(int rank, int offset, int channel, std::size_t step) const {
    const Piece block = blocks[static_cast<std::size_t>((rank + offset) % n)];
    const Piece share = EvenPieces(block.length, channels)[channel];
    const std::size_t from = std::min(step * chunk, share.length);
    return {block.start + share.start + from, std::min(chunk, share.length - from)};
  }
  // The index of (STEP, CHANNEL, DIMENSION, OFFSET sent there) among the call's N-1 messages per chunk.
  std::size_t message(std::size_t step, int channel, int dimension, int offset) const {
    const std::size_t per_chunk = static_cast<std::size_t>(n - 1);
    return (step * static_cast<std::size_t>(channels) + static_cast<std::size_t>(channel)) * per_chunk +
           first[static_cast<std::size_t>(dimension)] + static_cast<std::size_t>(offset >> (dimension + 1));
  }
};

PatPlan pat_plan(std::size_t count, bool reduce_scatter, const AllreduceContext& ctx) {
  PatPlan plan;
  plan.n = ctx.size;
  plan.blocks = split_evenly(count, ctx.size);
  plan.channels = std::max(1, ctx.nccl.channels);
  plan.chunk = std::max<std::size_t>(1, nccl_pat_chunk_bytes(ctx.nccl.buffsize, plan.channels, count * sizeof(float), reduce_scatter) / sizeof(float));
  const std::size_t longest = EvenPieces(plan.blocks[0].length, plan.channels)[0].length;  // the first is the longest
  plan.steps = std::max<std::size_t>(1, (longest + plan.chunk - 1) / plan.chunk);
  std::size_t busiest = 1, index = 0;
  for (int d = 0; d < pat_dimensions(plan.n); ++d) {
    plan.sent.push_back(pat_offsets_sent(d, plan.n));
    plan.first.push_back(index);
    index += plan.sent.back().size();
    busiest = std::max(busiest, plan.sent.back().size());
  }
  plan.in_flight = std::max<std::size_t>(1, kNcclPatFifoSteps / busiest);
  return plan;
}

// The call's requests, step by step: a chunk step's receives (N-1 per channel), then its sends, each
// at PatPlan::message of its edge; so the requests of a run of steps lie side by side.
struct PatRequests {
  std::size_t per_step = 0;  // messages of one chunk step: channels x (N-1)
  std::vector<MPI_Request> all;
  PatRequests(std::size_t steps, std::size_t per_chunk_step) : per_step(per_chunk_step), all(2 * steps * per_chunk_step, MPI_REQUEST_NULL) {}
  std::size_t at(std::size_t m) const { return m + (m / per_step) * per_step; }  // step s's receives start at 2 s per_step
  MPI_Request* receive(std::size_t m) { return &all[at(m)]; }
  MPI_Request* send(std::size_t m) { return &all[at(m) + per_step]; }
  bool received(std::size_t m) const { return all[at(m)] == MPI_REQUEST_NULL; }  // every receive is posted first
  // Waits for any request of chunk steps FROM to TO (exclusive): a channel waits only on those.
  void wait_any(std::size_t from, std::size_t to) {
    int index = MPI_UNDEFINED;
    MPI_Waitany(static_cast<int>(2 * (to - from) * per_step), all.data() + 2 * from * per_step, &index, MPI_STATUS_IGNORE);
  }
  void wait_all() { MPI_Waitall(static_cast<int>(all.size()), all.data(), MPI_STATUSES_IGNORE); }
};

// Issues every send of the call in each channel's order (chunk steps in turn, within one the
// schedule's ORDER of (dimension, offset)), a channel's send as soon as READY says its data is in hand
// and its step is within the IN_FLIGHT steps after the oldest whose sends are not all done. The
// channels go side by side, as NCCL's thread blocks do; while none can go on, the rank waits for any
// message. ISSUE sends one (and does the adding a reduce-scatter needs first).
template <typename Ready, typename Issue>
void run_channels(const PatPlan& plan, const std::vector<std::pair<int, int>>& order, PatRequests& requests, Ready ready,
                  Issue issue) {
  const auto channels = static_cast<std::size_t>(plan.channels);
  std::vector<std::size_t> next(channels, 0);  // the next send of each channel, counted over its steps
  const std::size_t per_step = order.size(), total = plan.steps * per_step;
  auto step_done = [&](std::size_t s, int c) {
    for (const auto& [d, t] : order)
      if (*requests.send(plan.message(s, c, d, t)) != MPI_REQUEST_NULL) return false;
    return true;
  };
  for (;;) {
    bool all_issued = true;
    for (int c = 0; c < plan.channels; ++c) {
      std::size_t& k = next[static_cast<std::size_t>(c)];
      while (k < total) {
        const std::size_t s = k / per_step;
        const auto [d, t] = order[k % per_step];
        if (k % per_step == 0 && s >= plan.in_flight && !step_done(s - plan.in_flight, c)) break;
        if (!ready(s, c, d, t)) break;
        issue(s, c, d, t);
        ++k;
      }
      all_issued = all_issued && k == total;
    }
    if (all_issued) break;
    // A channel waits on its step's receives or on the sends of the step IN_FLIGHT before it.
    const auto [lowest, highest] = std::minmax_element(next.begin(), next.end());
    const std::size_t from = *lowest / per_step, to = std::min(plan.steps, *highest / per_step + 1);
    requests.wait_any(from >= plan.in_flight ? from - plan.in_flight : 0, to);
  }
  requests.wait_all();
}

}  // namespace

void nccl_pat_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const PatPlan plan = pat_plan(count, false, ctx);
  const Piece mine = plan.blocks[static_cast<std::size_t>(me)];
  ctx.kernels.copy(output + mine.start, input, mine.length);
  if (n == 1) return;
  const int dimensions = pat_dimensions(n);
  PatRequests requests(plan.steps, static_cast<std::size_t>(plan.channels) * static_cast<std::size_t>(n - 1));
  // Every block lands in the output once, from rank + 2^lowbit(offset): all receives posted at once.
  for (std::size_t s = 0; s < plan.steps; ++s)
    for (int c = 0; c < plan.channels; ++c)
      for (int d = 0; d < dimensions; ++d)
        for (int t : plan.sent[static_cast<std::size_t>(d)]) {
          const Piece theirs = plan.piece(me, t + (1 << d), c, s);
          ctx.irecv(output + theirs.start, theirs.length, pat_upper_peer(me, d, n), kPatGatherTag + c, requests.receive(plan.message(s, c, d, t)));
        }
  // Sends, dimensions from the highest down; a block other than the rank's own came in on dimension
  // lowbit(t), as the message sent there at offset t - 2^lowbit(t).
  std::vector<std::pair<int, int>> order;
  for (int d = dimensions - 1; d >= 0; --d)
    for (int t : plan.sent[static_cast<std::size_t>(d)]) order.emplace_back(d, t);
  auto ready = [&](std::size_t s, int c, int, int t) {
    return t == 0 || requests.received(plan.message(s, c, pat_lowest_bit(t), t - (1 << pat_lowest_bit(t))));
  };
  auto issue = [&](std::size_t s, int c, int d, int t) {
    const Piece block = plan.piece(me, t, c, s);
    ctx.isend(output + block.start, block.length, pat_lower_peer(me, d, n), kPatGatherTag + c, requests.send(plan.message(s, c, d, t)));
  };
  run_channels(plan, order, requests, ready, issue);
}

void nccl_pat_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const PatPlan plan = pat_plan(count, true, ctx);
  const Piece mine = plan.blocks[static_cast<std::size_t>(me)];
  ctx.kernels.copy(output, input, count);  // the rank's copies of every block, each to be added to
  if (n > 1) {
    const int dimensions = pat_dimensions(n);
    const std::size_t messages = plan.steps * static_cast<std::size_t>(plan.channels) * static_cast<std::size_t>(n - 1);
    PatRequests requests(plan.steps, static_cast<std::size_t>(plan.channels) * static_cast<std::size_t>(n - 1));
    // One slot per message received. With SMPI-shared buffers the values mean nothing and every slot is
    // the shared scratch.
    SlotMemory slots;
    float* slot_base = ctx.scratch;
    std::size_t stride = 0;
    if (ctx.kernels.hold_values()) {
      slots = slot_memory(messages * plan.chunk);
      slot_base = slots.get();
      stride = plan.chunk;
    }
    // From rank - 2^d, the partial sums of the blocks an all-gather would send there.
    for (std::size_t s = 0; s < plan.steps; ++s)
      for (int c = 0; c < plan.channels; ++c)
        for (int d = 0; d < dimensions; ++d)
          for (int t : plan.sent[static_cast<std::size_t>(d)]) {
            const std::size_t m = plan.message(s, c, d, t);
            ctx.irecv(slot_base + m * stride, plan.piece(me, t, c, s).length, pat_lower_peer(me, d, n), kPatReduceTag + c, requests.receive(m));
          }
    auto add = [&](std::size_t s, int c, int d, int t) {
      const std::size_t m = plan.message(s, c, d, t);
      const Piece block = plan.piece(me, t, c, s);
      ctx.kernels.sum_into(output + block.start, slot_base + m * stride, block.length);
    };
    // Sends, dimensions from the lowest up: the block at offset u = t + 2^d leaves on d = lowbit(u) once
    // the contributions from the dimensions below d (those with u + 2^below < N) are in and added.
    std::vector<std::pair<int, int>> order;
    for (int d = 0; d < dimensions; ++d)
      for (int t : plan.sent[static_cast<std::size_t>(d)]) order.emplace_back(d, t);
    auto ready = [&](std::size_t s, int c, int d, int t) {
      const int u = t + (1 << d);
      for (int below = 0; below < d; ++below)
        if (u + (1 << below) < n && !requests.received(plan.message(s, c, below, u))) return false;
      return true;
    };
    auto issue = [&](std::size_t s, int c, int d, int t) {
      const int u = t + (1 << d);
      for (int below = 0; below < d; ++below)
        if (u + (1 << below) < n) add(s, c, below, u);
      const Piece block = plan.piece(me, u, c, s);
      ctx.isend(output + block.start, block.length, pat_upper_peer(me, d, n), kPatReduceTag + c, requests.send(plan.message(s, c, d, t)));
    };
    run_channels(plan, order, requests, ready, issue);
    // The rank's own block: one partial sum from every dimension.
    for (std::size_t s = 0; s < plan.steps; ++s)
      for (int c = 0; c < plan.channels; ++c)
        for (int d = 0; d < dimensions; ++d) add(s, c, d, 0);
  }
  // The rank's block, the sum, to the front (through scratch: the two may overlap).
  ctx.kernels.copy(ctx.scratch, output + mine.start, mine.length);
  ctx.kernels.copy(output, ctx.scratch, mine.length);
}

}  // namespace ringsim
