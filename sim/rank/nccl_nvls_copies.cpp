// NCCL's NVLS all-gather and reduce-scatter on one NVSwitch node (NCCL 2.19 on; device/all_gather.h and
// reduce_scatter.h, NCCL_ALGO_NVLS, Simple). All-gather: each GPU stores its block to a multicast
// address that the switch copies to every GPU (multimem.st). Reduce-scatter: each GPU reads its block
// through the switch, which adds every GPU's copy of it (multimem.ld_reduce). Either way a GPU's
// NVLink carries (N-1)/N S one way and S/N the other, where the ring carries (N-1)/N S both ways.
//
// As plain MPI, the switch's work becomes direct messages of the blocks (all-gather: each rank's block
// to every peer; reduce-scatter: each rank's copy of a peer's block to that peer, which adds the
// copies, so the values are exact), charged at 1 / NCCL's NVLS efficiency a byte (nvls_steps.h): the
// N-1 blocks each port takes in (all-gather) or gives out (reduce-scatter) are what NVLS puts there.
// The other direction carries as much, so it binds no more. Blocks go in steps of NCCL's NVLS chunk
// (nvls_chunks.h, as for the all-reduce), kNvlsStepsInFlight steps at a time.
#include "buffer_pieces.h"
#include "collectives.h"
#include "message_tags.h"
#include "nvls_steps.h"
#include "rank_memory.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace ringsim {
namespace {

// The part of BLOCK that step STEP of CHUNK floats moves (empty past the block's end).
Piece chunk_of(const Piece& block, std::size_t step, std::size_t chunk) {
  const std::size_t offset = std::min(step * chunk, block.length);
  return {block.start + offset, std::min(chunk, block.length - offset)};
}

// What both collectives share: their blocks, chunk and number of steps.
struct NvlsCopyPlan {
  std::vector<Piece> blocks;
  std::size_t chunk = 1;
  std::size_t steps = 0;
};

NvlsCopyPlan nvls_copy_plan(std::size_t count, const AllreduceContext& ctx) {
  NvlsCopyPlan plan{split_evenly(count, ctx.size), 1, 0};
  const std::size_t longest = plan.blocks[0].length;  // EvenPieces: the first block is the longest
  plan.chunk = std::max<std::size_t>(1, std::min(nvls_chunk_floats(ctx.nccl, ctx.size, count * sizeof(float)), longest));
  plan.steps = (longest + plan.chunk - 1) / plan.chunk;
  return plan;
}

void wait_all(std::vector<MPI_Request>& requests) {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

}  // namespace

void nccl_nvls_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const NvlsCopyPlan plan = nvls_copy_plan(count, ctx);
  ctx.kernels.copy(output + plan.blocks[static_cast<std::size_t>(me)].start, input, plan.blocks[static_cast<std::size_t>(me)].length);
  if (n == 1) return;
  start_weighed_nvls_call("nccl_nvls", n, nvls_copy_wire_per_byte(ctx.nccl), ctx);
  // A step's receives land in the output and its sends read the rank's own block: nothing waits on an
  // earlier step but the window's room.
  std::deque<std::vector<MPI_Request>> in_flight;
  for (std::size_t s = 0; s < plan.steps; ++s) {
    std::vector<MPI_Request>& requests = in_flight.emplace_back();
    for (int peer = 0; peer < n; ++peer) {
      if (peer == me) continue;
      const Piece theirs = chunk_of(plan.blocks[static_cast<std::size_t>(peer)], s, plan.chunk);
      ctx.irecv(output + theirs.start, theirs.length, peer, kNvlsGatherTag, &requests.emplace_back());
    }
    const Piece mine = chunk_of(plan.blocks[static_cast<std::size_t>(me)], s, plan.chunk);
    for (int peer = 0; peer < n; ++peer)
      if (peer != me) ctx.isend(output + mine.start, mine.length, peer, kNvlsGatherTag, &requests.emplace_back());
    if (in_flight.size() > static_cast<std::size_t>(kNvlsStepsInFlight)) wait_all(in_flight.front()), in_flight.pop_front();
  }
  for (std::vector<MPI_Request>& requests : in_flight) wait_all(requests);
  scale_sends(1.0);
}

void nccl_nvls_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const NvlsCopyPlan plan = nvls_copy_plan(count, ctx);
  const Piece my_block = plan.blocks[static_cast<std::size_t>(me)];
  ctx.kernels.copy(output, input, count);  // the rank's copies of every block, its own to be summed
  if (n > 1) {
    start_weighed_nvls_call("nccl_nvls", n, nvls_copy_wire_per_byte(ctx.nccl), ctx);
    const std::size_t window = std::min<std::size_t>(kNvlsStepsInFlight, std::max<std::size_t>(1, plan.steps));
    // The peers' copies of a step's chunk of my block land in slots: (N-1) chunks per step in flight.
    // With SMPI-shared buffers the values mean nothing and every slot is the shared scratch.
    SlotMemory slots;
    float* slot_base = ctx.scratch;
    std::size_t peer_stride = 0, step_stride = 0;
    if (ctx.kernels.hold_values()) {
      slots = slot_memory(window * static_cast<std::size_t>(n) * plan.chunk);
      slot_base = slots.get();
      peer_stride = plan.chunk;
      step_stride = static_cast<std::size_t>(n) * plan.chunk;
    }
    auto slot = [&](std::size_t s, int peer) { return slot_base + (s % window) * step_stride + static_cast<std::size_t>(peer) * peer_stride; };
    std::vector<std::vector<MPI_Request>> requests(window);
    auto start_step = [&](std::size_t s) {
      const Piece mine = chunk_of(my_block, s, plan.chunk);
      for (int peer = 0; peer < n; ++peer)
        if (peer != me) ctx.irecv(slot(s, peer), mine.length, peer, kNvlsReduceTag, &requests[s % window].emplace_back());
      for (int peer = 0; peer < n; ++peer) {
        if (peer == me) continue;
        const Piece theirs = chunk_of(plan.blocks[static_cast<std::size_t>(peer)], s, plan.chunk);
        ctx.isend(output + theirs.start, theirs.length, peer, kNvlsReduceTag, &requests[s % window].emplace_back());
      }
    };
    for (std::size_t s = 0; s < window && s < plan.steps; ++s) start_step(s);
    for (std::size_t s = 0; s < plan.steps; ++s) {
      wait_all(requests[s % window]);
      const Piece mine = chunk_of(my_block, s, plan.chunk);
      for (int peer = 0; peer < n; ++peer)
        if (peer != me) ctx.kernels.sum_into(output + mine.start, slot(s, peer), mine.length);
      if (s + window < plan.steps) start_step(s + window);  // its slots are free again
    }
    scale_sends(1.0);
  }
  // The rank's block, the sum, to the front (through scratch: the two may overlap).
  ctx.kernels.copy(ctx.scratch, output + my_block.start, my_block.length);
  ctx.kernels.copy(output, ctx.scratch, my_block.length);
}

}  // namespace ringsim
