// Ring all-gather and reduce-scatter: the two phases of the ring allreduce (ring_phase), each on its
// own, both one position back: all-gather's first step then sends the rank's own piece, and
// reduce-scatter's last leaves rank r holding the sum of piece r, as nccl-tests expects.
// Either way each rank sends and receives (N-1)/N of the size.
#include "buffer_pieces.h"
#include "collectives.h"
#include "group_collectives.h"
#include "message_tags.h"

namespace ringsim {

void ring_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const EvenPieces piece(count, n);
  ctx.kernels.copy(output + piece[me].start, input, piece[me].length);
  if (n == 1) return;
  ring_phase(output, piece, (me - 1 + n) % n, false, (me + 1) % n, (me - 1 + n) % n, kCollectiveRingTag, ctx);
}

void ring_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const EvenPieces piece(count, n);
  ctx.kernels.copy(output, input, count);  // the running sums, all N pieces
  if (n > 1) ring_phase(output, piece, (me - 1 + n) % n, true, (me + 1) % n, (me - 1 + n) % n, kCollectiveRingTag, ctx);
  // The rank's piece to the front of the output (through scratch: the two may overlap).
  ctx.kernels.copy(ctx.scratch, output + piece[me].start, piece[me].length);
  ctx.kernels.copy(output, ctx.scratch, piece[me].length);
}

}  // namespace ringsim
