// Ring all-gather and reduce-scatter: the two halves of the ring allreduce (ring_schedule.h), each on
// its own. All-gather walks the scatter-reduce indices without adding, so a rank sends its own piece
// first; reduce-scatter walks them one position back, so rank r ends holding the sum of piece r, as
// nccl-tests expects. Either way each rank sends and receives (N-1)/N of the size.
#include "buffer_pieces.h"
#include "collectives.h"
#include "group_collectives.h"
#include "message_tags.h"
#include "ring_schedule.h"

namespace ringsim {

void ring_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const EvenPieces piece(count, n);
  ctx.kernels.copy(output + piece[me].start, input, piece[me].length);
  const int send_to = (me + 1) % n, recv_from = (me - 1 + n) % n;
  for (int i = 0; i < n - 1; ++i) {
    const int send_chunk = ring_send_chunk(me, i, true, n);
    const int recv_chunk = ring_recv_chunk(me, i, true, n);
    const double start = MPI_Wtime();
    ring_step(ctx, output + piece[recv_chunk].start, piece[recv_chunk].length, recv_from, output + piece[send_chunk].start,
              piece[send_chunk].length, send_to, kCollectiveRingTag);
    ctx.log.record({StepPhase::allgather, i, recv_chunk, recv_from, piece[recv_chunk].length * sizeof(float), start,
                    MPI_Wtime()});
  }
}

void ring_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const EvenPieces piece(count, n);
  ctx.kernels.copy(output, input, count);  // the running sums, all N pieces
  const int send_to = (me + 1) % n, recv_from = (me - 1 + n) % n;
  const int position = (me - 1 + n) % n;  // one back: the last piece added is piece `me`
  for (int i = 0; i < n - 1; ++i) {
    const int send_chunk = ring_send_chunk(position, i, true, n);
    const int recv_chunk = ring_recv_chunk(position, i, true, n);
    const double start = MPI_Wtime();
    ring_step(ctx, ctx.scratch, piece[recv_chunk].length, recv_from, output + piece[send_chunk].start, piece[send_chunk].length,
              send_to, kCollectiveRingTag);
    ctx.kernels.sum_into(output + piece[recv_chunk].start, ctx.scratch, piece[recv_chunk].length);
    ctx.log.record({StepPhase::scatter_reduce, i, recv_chunk, recv_from, piece[recv_chunk].length * sizeof(float), start,
                    MPI_Wtime()});
  }
  // The rank's piece to the front of the output (through scratch: the two may overlap).
  ctx.kernels.copy(ctx.scratch, output + piece[me].start, piece[me].length);
  ctx.kernels.copy(output, ctx.scratch, piece[me].length);
}

}  // namespace ringsim
