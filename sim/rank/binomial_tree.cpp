// Binomial-tree reduce and broadcast over a group (group_collectives.h). Each non-root position sends
// or receives the whole buffer once, so ceil(lg N) rounds of a full-buffer message lie on the path
// from the farthest leaf to the root.
#include "group_collectives.h"
#include "message_tags.h"

namespace ringsim {
namespace {

int round_of(int mask) {
  int round = 0;
  while ((1 << round) < mask) ++round;
  return round;
}

}  // namespace

void binomial_reduce(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx) {
  const int n = group.size(), v = group.me;
  const std::uint64_t bytes = count * sizeof(float);
  for (int mask = 1; mask < n; mask <<= 1) {
    const double start = MPI_Wtime();
    if ((v & mask) != 0) {  // our partial sum is complete: hand it to the parent and stop
      const int parent = group.ranks[v - mask];
      ctx.send(data, count, parent, kTreeReduceTag);
      ctx.log.record({StepPhase::reduce, round_of(mask), 0, parent, bytes, start, MPI_Wtime()});
      return;
    }
    if (v + mask < n) {
      const int child = group.ranks[v + mask];
      ctx.recv(ctx.scratch, count, child, kTreeReduceTag);
      ctx.kernels.sum_into(data, ctx.scratch, count);
      ctx.log.record({StepPhase::reduce, round_of(mask), 0, child, bytes, start, MPI_Wtime()});
    }
  }
}

void binomial_broadcast(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx) {
  const int n = group.size(), v = group.me;
  const std::uint64_t bytes = count * sizeof(float);
  int top = 1;
  while (top < n) top <<= 1;
  const int rounds = round_of(top);
  // A position receives from the one that differs in its lowest set bit, then serves the subtrees
  // below that bit, largest first.
  const int lowest = v == 0 ? top : (v & -v);
  if (v != 0) {
    const double start = MPI_Wtime();
    const int parent = group.ranks[v - lowest];
    ctx.recv(data, count, parent, kTreeBroadcastTag);
    ctx.log.record({StepPhase::broadcast, rounds - 1 - round_of(lowest), 0, parent, bytes, start, MPI_Wtime()});
  }
  for (int mask = lowest >> 1; mask >= 1; mask >>= 1) {
    if (v + mask >= n) continue;
    const double start = MPI_Wtime();
    const int child = group.ranks[v + mask];
    ctx.send(data, count, child, kTreeBroadcastTag);
    ctx.log.record({StepPhase::broadcast, rounds - 1 - round_of(mask), 0, child, bytes, start, MPI_Wtime()});
  }
}

}  // namespace ringsim
