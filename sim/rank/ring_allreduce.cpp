// Ring allreduce with baidu-allreduce's communication pattern: the buffer is cut into N segments;
// N-1 scatter-reduce steps each post MPI_Irecv from the left neighbour, MPI_Send one segment to the
// right neighbour, MPI_Wait, then reduce; N-1 allgather steps pass the reduced segments around.
// Each rank sends and receives 2(N-1)/N of the buffer, which is what makes the ring bandwidth-optimal.
#include "allreduce.h"

#include <vector>

namespace ringsim {
namespace {

struct Segments {
  std::vector<std::size_t> start, length;
};

// N segments as equal as possible; the first count % N are one element longer.
Segments split(std::size_t count, int n) {
  Segments s;
  std::size_t offset = 0;
  for (int i = 0; i < n; ++i) {
    std::size_t len = count / n + (static_cast<std::size_t>(i) < count % n ? 1 : 0);
    s.start.push_back(offset);
    s.length.push_back(len);
    offset += len;
  }
  return s;
}

}  // namespace

void ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, rank = ctx.rank;
  ctx.kernels.copy(output, input, count);
  if (n == 1) return;
  const Segments seg = split(count, n);
  const int send_to = (rank + 1) % n;
  const int recv_from = (rank - 1 + n) % n;

  for (int i = 0; i < n - 1; ++i) {
    const int recv_chunk = (rank - i - 1 + n) % n;
    const int send_chunk = (rank - i + n) % n;
    const double start = MPI_Wtime();
    MPI_Request request;
    MPI_Irecv(ctx.scratch, static_cast<int>(seg.length[recv_chunk]), MPI_FLOAT, recv_from, 0, ctx.comm, &request);
    MPI_Send(output + seg.start[send_chunk], static_cast<int>(seg.length[send_chunk]), MPI_FLOAT, send_to, 0,
             ctx.comm);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    ctx.kernels.sum_into(output + seg.start[recv_chunk], ctx.scratch, seg.length[recv_chunk]);
    ctx.log.record({StepPhase::scatter_reduce, i, recv_chunk, recv_from, seg.length[recv_chunk] * sizeof(float),
                    start, MPI_Wtime()});
  }

  for (int i = 0; i < n - 1; ++i) {
    const int send_chunk = (rank - i + 1 + n) % n;
    const int recv_chunk = (rank - i + n) % n;
    const double start = MPI_Wtime();
    MPI_Request request;
    MPI_Irecv(output + seg.start[recv_chunk], static_cast<int>(seg.length[recv_chunk]), MPI_FLOAT, recv_from, 1,
              ctx.comm, &request);
    MPI_Send(output + seg.start[send_chunk], static_cast<int>(seg.length[send_chunk]), MPI_FLOAT, send_to, 1,
             ctx.comm);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    ctx.log.record({StepPhase::allgather, i, recv_chunk, recv_from, seg.length[recv_chunk] * sizeof(float), start,
                    MPI_Wtime()});
  }
}

}  // namespace ringsim
