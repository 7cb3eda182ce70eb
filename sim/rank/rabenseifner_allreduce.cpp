// Rabenseifner's allreduce: a reduce-scatter by recursive halving (round k: swap half of the current
// window with the partner differing in bit lg(P)-1-k and add the half kept), then an allgather by
// recursive doubling (swap windows back, doubling them). 2 lg P latencies and, like the ring,
// 2(P-1)/P of the buffer sent per rank. Non-powers of two are folded as Thakur, Rabenseifner and
// Gropp (2005) describe: each pair (2i, 2i+1) of the first 2R ranks swaps halves and adds (each
// reduces one half), the even rank sends its reduced half to the odd one and sits out; the odd rank
// sends the result back at the end.
#include "buffer_pieces.h"
#include "power_of_two_fold.h"

#include "allreduce.h"
#include "message_tags.h"

namespace ringsim {
namespace {

// Elements of blocks [first, last) of BLOCKS.
Piece span_of(const std::vector<Piece>& blocks, int first, int last) {
  const std::size_t start = blocks[first].start;
  return {start, blocks[last - 1].start + blocks[last - 1].length - start};
}

// The pair's halves: the even rank reduces the first, the odd rank the second.
void fold_in(float* data, std::size_t count, int rank, bool even, AllreduceContext& ctx) {
  const Piece first{0, count / 2}, second{count / 2, count - count / 2};
  const Piece give = even ? second : first, keep = even ? first : second;
  const int partner = even ? rank + 1 : rank - 1;
  double start = MPI_Wtime();
  ctx.sendrecv(data + give.start, give.length, partner, ctx.scratch, keep.length, partner, kRabenseifnerFoldTag);
  ctx.kernels.sum_into(data + keep.start, ctx.scratch, keep.length);
  ctx.log.record({StepPhase::fold, 0, even ? 0 : 1, partner, keep.length * sizeof(float), start, MPI_Wtime()});
  start = MPI_Wtime();
  if (even)
    ctx.send(data + first.start, first.length, partner, kRabenseifnerFoldHalfTag);
  else
    ctx.recv(data + first.start, first.length, partner, kRabenseifnerFoldHalfTag);
  ctx.log.record({StepPhase::fold, 1, 0, partner, first.length * sizeof(float), start, MPI_Wtime()});
}

}  // namespace

void rabenseifner_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  const PowerOfTwoFold fold(ctx.size);
  const int rank = ctx.rank;
  if (fold.folded_away(rank) || fold.folds_in(rank)) fold_in(output, count, rank, fold.folded_away(rank), ctx);

  if (!fold.folded_away(rank)) {
    const int v = fold.virtual_rank(rank);
    const std::vector<Piece> blocks = split_evenly(count, fold.main_ranks);
    int lo = 0, hi = fold.main_ranks;  // the window of blocks this rank is responsible for
    int step = 0;
    for (int mask = fold.main_ranks / 2; mask >= 1; mask /= 2, ++step) {
      const int partner = fold.real_rank(v ^ mask);
      const int mid = lo + (hi - lo) / 2;
      const bool lower = (v & mask) == 0;
      const Piece keep = lower ? span_of(blocks, lo, mid) : span_of(blocks, mid, hi);
      const Piece give = lower ? span_of(blocks, mid, hi) : span_of(blocks, lo, mid);
      const double start = MPI_Wtime();
      ctx.sendrecv(output + give.start, give.length, partner, ctx.scratch, keep.length, partner, kRabenseifnerHalvingTag);
      ctx.kernels.sum_into(output + keep.start, ctx.scratch, keep.length);
      ctx.log.record({StepPhase::scatter_reduce, step, lower ? lo : mid, partner, keep.length * sizeof(float), start,
                      MPI_Wtime()});
      if (lower) hi = mid; else lo = mid;
    }
    // Now [lo, hi) = [v, v + 1): this rank holds block v fully reduced.
    step = 0;
    for (int mask = 1; mask < fold.main_ranks; mask *= 2, ++step) {
      const int partner = fold.real_rank(v ^ mask);
      const bool lower = (v & mask) == 0;
      const int other_lo = lower ? hi : lo - mask;
      const Piece mine = span_of(blocks, lo, hi), theirs = span_of(blocks, other_lo, other_lo + mask);
      const double start = MPI_Wtime();
      ctx.sendrecv(output + mine.start, mine.length, partner, output + theirs.start, theirs.length, partner,
                   kRabenseifnerDoublingTag);
      ctx.log.record({StepPhase::allgather, step, other_lo, partner, theirs.length * sizeof(float), start, MPI_Wtime()});
      if (lower) hi += mask; else lo -= mask;
    }
  }

  if (fold.folded_away(rank) || fold.folds_in(rank)) {
    const double start = MPI_Wtime();
    const int partner = fold.folds_in(rank) ? rank - 1 : rank + 1;
    if (fold.folds_in(rank))
      ctx.send(output, count, partner, kRabenseifnerUnfoldTag);
    else
      ctx.recv(output, count, partner, kRabenseifnerUnfoldTag);
    ctx.log.record({StepPhase::unfold, 0, 0, partner, count * sizeof(float), start, MPI_Wtime()});
  }
}

}  // namespace ringsim
