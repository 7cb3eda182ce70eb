// sendrecv as nccl-tests' sendrecv_perf runs it: a ring shift, every rank sends its buffer to
// rank + 1 and receives rank - 1's, all at once (one MPI_Sendrecv each).
#include "collectives.h"
#include "message_tags.h"

namespace ringsim {

void ring_shift_sendrecv(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  if (n == 1) return ctx.kernels.copy(output, input, count);
  const int to = (me + 1) % n, from = (me - 1 + n) % n;
  const double start = MPI_Wtime();
  ctx.sendrecv(input, count, to, output, count, from, kRingShiftTag);
  ctx.log.record({StepPhase::exchange, 0, 0, from, count * sizeof(float), start, MPI_Wtime()});
}

}  // namespace ringsim
