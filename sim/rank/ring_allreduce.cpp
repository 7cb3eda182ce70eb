// Ring allreduce with baidu-allreduce's communication pattern: the buffer is cut into N segments;
// N-1 scatter-reduce steps each post MPI_Irecv from the left neighbour, MPI_Send one segment to the
// right neighbour, MPI_Wait, then reduce; N-1 allgather steps pass the reduced segments around.
// Each rank sends and receives 2(N-1)/N of the buffer, which is what makes the ring bandwidth-optimal.
#include "buffer_pieces.h"
#include "group_collectives.h"
#include "message_tags.h"
#include "ring_schedule.h"

namespace ringsim {

void ring_allreduce_in_group(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx) {
  const int n = group.size(), me = group.me;
  if (n == 1) return;
  const EvenPieces seg(count, n);
  const int send_to = group.ranks[(me + 1) % n];
  const int recv_from = group.ranks[(me - 1 + n) % n];

  for (int i = 0; i < n - 1; ++i) {
    const int recv_chunk = ring_recv_chunk(me, i, true, n);
    const int send_chunk = ring_send_chunk(me, i, true, n);
    const double start = MPI_Wtime();
    ring_step(ctx, ctx.scratch, seg[recv_chunk].length, recv_from, data + seg[send_chunk].start, seg[send_chunk].length, send_to,
              kRingScatterTag);
    ctx.kernels.sum_into(data + seg[recv_chunk].start, ctx.scratch, seg[recv_chunk].length);
    ctx.log.record({StepPhase::scatter_reduce, i, recv_chunk, recv_from, seg[recv_chunk].length * sizeof(float), start,
                    MPI_Wtime()});
  }

  for (int i = 0; i < n - 1; ++i) {
    const int send_chunk = ring_send_chunk(me, i, false, n);
    const int recv_chunk = ring_recv_chunk(me, i, false, n);
    const double start = MPI_Wtime();
    ring_step(ctx, data + seg[recv_chunk].start, seg[recv_chunk].length, recv_from, data + seg[send_chunk].start,
              seg[send_chunk].length, send_to, kRingGatherTag);
    ctx.log.record({StepPhase::allgather, i, recv_chunk, recv_from, seg[recv_chunk].length * sizeof(float), start,
                    MPI_Wtime()});
  }
}

void ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  ring_allreduce_in_group(output, count, whole_communicator(ctx), ctx);
}

}  // namespace ringsim
