// Ring allreduce with baidu-allreduce's communication pattern: the buffer is cut into N segments;
// N-1 scatter-reduce steps each post MPI_Irecv from the left neighbour, MPI_Send one segment to the
// right neighbour, MPI_Wait, then reduce; N-1 allgather steps pass the reduced segments around.
// Each rank sends and receives 2(N-1)/N of the buffer, which is what makes the ring bandwidth-optimal.
#include "buffer_pieces.h"
#include "group_collectives.h"
#include "message_tags.h"
#include "ring_schedule.h"

namespace ringsim {

void ring_phase(float* data, const EvenPieces& pieces, int position, bool reduce, int send_to, int recv_from, int tag,
                AllreduceContext& ctx) {
  const int n = pieces.size();
  for (int i = 0; i < n - 1; ++i) {
    const int recv_chunk = ring_recv_chunk(position, i, reduce, n);
    const Piece recv = pieces[recv_chunk];
    const Piece send = pieces[ring_send_chunk(position, i, reduce, n)];
    const double start = MPI_Wtime();
    ring_step(ctx, reduce ? ctx.scratch : data + recv.start, recv.length, recv_from, data + send.start, send.length, send_to, tag);
    if (reduce) ctx.kernels.sum_into(data + recv.start, ctx.scratch, recv.length);
    ctx.log.record({reduce ? StepPhase::scatter_reduce : StepPhase::allgather, i, recv_chunk, recv_from, recv.length * sizeof(float),
                    start, MPI_Wtime()});
  }
}

void ring_allreduce_in_group(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx) {
  const int n = group.size(), me = group.me;
  if (n == 1) return;
  const EvenPieces seg(count, n);
  const int send_to = group.ranks[(me + 1) % n];
  const int recv_from = group.ranks[(me - 1 + n) % n];

  ring_phase(data, seg, me, true, send_to, recv_from, kRingScatterTag, ctx);
  ring_phase(data, seg, me, false, send_to, recv_from, kRingGatherTag, ctx);
}

void ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  ring_allreduce_in_group(output, count, whole_communicator(ctx), ctx);
}

}  // namespace ringsim
