// Parameter server with K sharded servers (ranks 0..K-1; K = 1 is the classic single server): shard j
// of the buffer belongs to server j. Every rank sends each shard to its server at once (push), each
// server adds the N-1 copies of its shard as they arrive, then sends the sum back to everyone (pull).
// A server receives and sends (N-1)/K of the buffer, so its link is the bottleneck and the per-rank
// traffic grows with N — unlike the ring's 2(N-1)/N, though the total bytes are the same 2(N-1)S.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "message_tags.h"

#include <algorithm>

namespace ringsim {
namespace {

// Who serves what: K servers (ranks 0..K-1), shard j of the buffer on server j.
struct ShardLayout {
  int n, rank, k;
  std::vector<Piece> shards;
  bool is_server;
  Piece own;  // this rank's shard when it is a server, else empty
};

// Push. A server receives its N-1 copies concurrently, so each needs its own staging area; with
// SMPI-shared buffers (values meaningless, SMPI copies nothing into shared pages) they share scratch.
void push(float* output, const ShardLayout& layout, AllreduceContext& ctx) {
  const int n = layout.n, rank = layout.rank, k = layout.k;
  const std::vector<Piece>& shards = layout.shards;
  const Piece own = layout.own;
  const double start = MPI_Wtime();
  std::vector<MPI_Request> sends, receives;
  std::vector<int> sources;
  std::vector<float> staging;
  sends.reserve(k);
  receives.reserve(n);
  if (layout.is_server) {
    if (ctx.kernels.hold_values()) staging.resize(static_cast<std::size_t>(n - 1) * own.length);
    for (int r = 0; r < n; ++r) {
      if (r == rank) continue;
      float* slot = ctx.kernels.hold_values() ? staging.data() + sources.size() * own.length : ctx.scratch;
      receives.emplace_back();
      ctx.irecv(slot, own.length, r, kPushTag, &receives.back());
      sources.push_back(r);
    }
  }
  for (int j = 0; j < k; ++j) {
    if (j == rank) continue;
    sends.emplace_back();
    ctx.isend(output + shards[j].start, shards[j].length, j, kPushTag, &sends.back());
  }
  for (std::size_t arrived = 0; arrived < receives.size(); ++arrived) {
    int index = 0;
    MPI_Waitany(static_cast<int>(receives.size()), receives.data(), &index, MPI_STATUS_IGNORE);
    const float* slot = ctx.kernels.hold_values() ? staging.data() + index * own.length : ctx.scratch;
    ctx.kernels.sum_into(output + own.start, slot, own.length);
    ctx.log.record({StepPhase::push, static_cast<int>(arrived), rank, sources[index], own.length * sizeof(float),
                    start, MPI_Wtime()});
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  for (int j = 0; j < k; ++j)
    if (j != rank) ctx.log.record({StepPhase::push, 0, j, j, shards[j].length * sizeof(float), start, MPI_Wtime()});
}

// Pull: servers send their summed shard to every other rank; everyone receives the other shards.
void pull(float* output, const ShardLayout& layout, AllreduceContext& ctx) {
  const int n = layout.n, rank = layout.rank, k = layout.k;
  const std::vector<Piece>& shards = layout.shards;
  const Piece own = layout.own;
  const double start = MPI_Wtime();
  std::vector<MPI_Request> requests;
  requests.reserve(n + k);
  if (layout.is_server)
    for (int r = 0; r < n; ++r) {
      if (r == rank) continue;
      requests.emplace_back();
      ctx.isend(output + own.start, own.length, r, kPullTag, &requests.back());
    }
  for (int j = 0; j < k; ++j) {
    if (j == rank) continue;
    requests.emplace_back();
    ctx.irecv(output + shards[j].start, shards[j].length, j, kPullTag, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  const double end = MPI_Wtime();
  for (int j = 0; j < k; ++j)
    if (j != rank) ctx.log.record({StepPhase::pull, 0, j, j, shards[j].length * sizeof(float), start, end});
  if (layout.is_server)
    for (int r = 0; r < n; ++r)
      if (r != rank) ctx.log.record({StepPhase::pull, 0, rank, r, own.length * sizeof(float), start, end});
}

}  // namespace

void parameter_server_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx,
                                int servers) {
  ctx.kernels.copy(output, input, count);
  const int n = ctx.size, rank = ctx.rank;
  if (n == 1) return;
  const int k = std::clamp(servers, 1, n);
  ShardLayout layout{n, rank, k, split_evenly(count, k), rank < k, {}};
  if (layout.is_server) layout.own = layout.shards[rank];
  push(output, layout, ctx);
  pull(output, layout, ctx);
}

}  // namespace ringsim
