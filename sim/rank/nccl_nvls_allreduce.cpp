// NCCL's NVLS allreduce on one NVSwitch node (NVLink SHARP: NCCL 2.17 on, Hopper and later GPUs;
// device/all_reduce.h, NCCL_ALGO_NVLS). Each GPU owns a shard of every chunk. The NVSwitch reads that
// shard from every GPU, adds the copies and hands the sum to its owner (multimem.ld_reduce), which
// stores it once to a multicast address that the switch copies to every GPU (multimem.st). A GPU's
// NVLink thus carries (1 + 1/N) S each way, where a ring carries 2(N-1)/N S: that is NVLS's gain.
//
// As plain MPI, the switch's work becomes a direct reduce-scatter and allgather of the shards (each
// rank adds its own shard, so the values are exact), with every message charged on the wire so that
// each GPU's port carries what NVLS puts on it: 2(N-1) messages of a shard per port and direction
// stand for (N+1) shards, divided by NCCL's NVLS efficiency for the GPU generation (nvlsEfficiency in
// tuning.cc: 0.85 Hopper, 0.74 Blackwell; engine_probes.h scale_sends). The launcher passes that
// efficiency and NCCL's model's NVLS latency (the multicast barrier the kernel pays once per call),
// which the rank spends before its first chunk. Shards of NCCL's chunk for the call (nvls_chunks.h:
// 128 KiB, smaller for calls of few chunks per channel and head), a few in flight, as NCCL's NVLS
// channels keep the switch busy: small chunks pay their steps' latencies more often, as NCCL's do.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "engine_probes.h"
#include "message_tags.h"
#include "rank_memory.h"
#include "nvls_steps.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace ringsim {
namespace {

// One step: N shards of at most a chunk, one per rank, and the requests of its two phases.
class NvlsStep {
 public:
  NvlsStep(float* data, Piece range, AllreduceContext& ctx, float* slots, std::size_t slot_stride)
      : data_(data), shards_(split_evenly(range.length, ctx.size)), ctx_(&ctx), slots_(slots), slot_stride_(slot_stride) {
    for (Piece& shard : shards_) shard.start += range.start;
  }

  // Each peer's copy of my shard to me, mine of theirs to them.
  void start_reduce_scatter() {
    const Piece& mine = shards_[static_cast<std::size_t>(ctx_->rank)];
    for (int peer = 0; peer < ctx_->size; ++peer) {
      if (peer == ctx_->rank) continue;
      ctx_->irecv(slot(peer), mine.length, peer, kNvlsReduceTag, &requests_.emplace_back());
    }
    for (int peer = 0; peer < ctx_->size; ++peer) {
      if (peer == ctx_->rank) continue;
      const Piece& theirs = shards_[static_cast<std::size_t>(peer)];
      ctx_->isend(data_ + theirs.start, theirs.length, peer, kNvlsReduceTag, &requests_.emplace_back());
    }
  }

  // Adds the copies of my shard, then sends the sum to every peer and takes theirs. The sends of the
  // first phase complete first: the sums arrive where they read.
  void reduce_then_start_allgather() {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    const Piece& mine = shards_[static_cast<std::size_t>(ctx_->rank)];
    for (int peer = 0; peer < ctx_->size; ++peer)
      if (peer != ctx_->rank) ctx_->kernels.sum_into(data_ + mine.start, slot(peer), mine.length);
    for (int peer = 0; peer < ctx_->size; ++peer) {
      if (peer == ctx_->rank) continue;
      const Piece& theirs = shards_[static_cast<std::size_t>(peer)];
      ctx_->irecv(data_ + theirs.start, theirs.length, peer, kNvlsGatherTag, &requests_.emplace_back());
    }
    for (int peer = 0; peer < ctx_->size; ++peer)
      if (peer != ctx_->rank) ctx_->isend(data_ + mine.start, mine.length, peer, kNvlsGatherTag, &requests_.emplace_back());
  }

  // The allgather's requests, handed over: the step's slots are free once it has started.
  std::vector<MPI_Request> take_requests() { return std::move(requests_); }

 private:
  float* slot(int peer) { return slots_ + static_cast<std::size_t>(peer) * slot_stride_; }

  float* data_;
  std::vector<Piece> shards_;
  AllreduceContext* ctx_;
  float* slots_;  // where each peer's copy of my shard lands
  std::size_t slot_stride_;
  std::vector<MPI_Request> requests_;
};

}  // namespace

void nccl_nvls_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size == 1) return;
  const int n = ctx.size;
  start_nvls_call("nccl_nvls", n, ctx);

  const std::size_t chunk_floats = nvls_chunk_floats(ctx.nccl, n, count * sizeof(float));
  const std::size_t step_floats = chunk_floats * static_cast<std::size_t>(n);
  const std::size_t steps = (count + step_floats - 1) / step_floats;
  const std::size_t in_flight = std::min<std::size_t>(kNvlsStepsInFlight, std::max<std::size_t>(1, steps));
  // Received copies land in slots: (N - 1) shards per step in flight. With SMPI-shared buffers the
  // values mean nothing and every slot is the shared scratch, as in other algorithms.
  const std::size_t shard_floats = std::min(chunk_floats, (count + n - 1) / static_cast<std::size_t>(n));
  SlotMemory slots;
  float* slot_base = ctx.scratch;
  std::size_t slot_stride = 0, step_stride = 0;
  if (ctx.kernels.hold_values() || shard_floats > count) {
    slots = slot_memory(in_flight * static_cast<std::size_t>(n) * shard_floats);
    slot_base = slots.get();
    slot_stride = shard_floats;
    step_stride = static_cast<std::size_t>(n) * shard_floats;
  }
  std::vector<NvlsStep> window;
  window.reserve(in_flight);
  auto step_at = [&](std::size_t s) {
    const Piece range{s * step_floats, std::min(step_floats, count - s * step_floats)};
    return NvlsStep(output, range, ctx, slot_base + (s % in_flight) * step_stride, slot_stride);
  };
  for (std::size_t s = 0; s < in_flight; ++s) window.push_back(step_at(s)), window.back().start_reduce_scatter();
  // Allgathers in flight: waited for only when as many later ones have started, so that no step's
  // latency stalls the next.
  std::deque<std::vector<MPI_Request>> gathering;
  auto finish_oldest = [&] {
    std::vector<MPI_Request>& oldest = gathering.front();
    MPI_Waitall(static_cast<int>(oldest.size()), oldest.data(), MPI_STATUSES_IGNORE);
    gathering.pop_front();
  };
  for (std::size_t s = 0; s < steps; ++s) {
    NvlsStep& step = window[s % in_flight];
    step.reduce_then_start_allgather();
    gathering.push_back(step.take_requests());
    if (gathering.size() > in_flight) finish_oldest();
    if (s + in_flight < steps) {
      step = step_at(s + in_flight);  // its slots are free again
      step.start_reduce_scatter();
    }
  }
  while (!gathering.empty()) finish_oldest();
  scale_sends(1.0);
}

}  // namespace ringsim
