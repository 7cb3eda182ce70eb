// Recursive doubling: in round k every rank swaps its whole partial sum with the rank whose number
// differs in bit k, and adds. lg N rounds of a full buffer: few latencies, but lg N buffers sent per
// rank where the ring sends 2(N-1)/N of one. Non-powers of two fold the extra ranks first
// (power_of_two_fold.h): one more full-buffer send in, and one out at the end.
#include "power_of_two_fold.h"

#include "allreduce.h"
#include "message_tags.h"

namespace ringsim {
void recursive_doubling_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  const PowerOfTwoFold fold(ctx.size);
  const int rank = ctx.rank;
  const std::uint64_t bytes = count * sizeof(float);

  if (fold.folded_away(rank) || fold.folds_in(rank)) {
    const double start = MPI_Wtime();
    if (fold.folded_away(rank)) {
      ctx.send(output, count, rank + 1, kDoublingFoldTag);
    } else {
      ctx.recv(ctx.scratch, count, rank - 1, kDoublingFoldTag);
      ctx.kernels.sum_into(output, ctx.scratch, count);
    }
    ctx.log.record({StepPhase::fold, 0, 0, fold.folded_away(rank) ? rank + 1 : rank - 1, bytes, start, MPI_Wtime()});
  }

  if (!fold.folded_away(rank)) {
    const int v = fold.virtual_rank(rank);
    int step = 0;
    for (int mask = 1; mask < fold.main_ranks; mask <<= 1, ++step) {
      const int partner = fold.real_rank(v ^ mask);
      const double start = MPI_Wtime();
      ctx.sendrecv(output, count, partner, ctx.scratch, count, partner, kDoublingExchangeTag);
      ctx.kernels.sum_into(output, ctx.scratch, count);
      ctx.log.record({StepPhase::exchange, step, 0, partner, bytes, start, MPI_Wtime()});
    }
  }

  if (fold.folded_away(rank) || fold.folds_in(rank)) {
    const double start = MPI_Wtime();
    if (fold.folds_in(rank))
      ctx.send(output, count, rank - 1, kDoublingUnfoldTag);
    else
      ctx.recv(output, count, rank + 1, kDoublingUnfoldTag);
    ctx.log.record({StepPhase::unfold, 0, 0, fold.folds_in(rank) ? rank - 1 : rank + 1, bytes, start, MPI_Wtime()});
  }
}

}  // namespace ringsim
