// Reduce-then-broadcast: a binomial-tree reduce to rank 0, then a binomial-tree broadcast of the
// sum. Every message carries the whole buffer, so it is latency-friendly (2 ceil(lg N) rounds) and
// bandwidth-poor (2 ceil(lg N) full buffers on the critical path, against the ring's 2(N-1)/N).
#include "group_collectives.h"

namespace ringsim {

void reduce_bcast_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  const RankGroup everyone = whole_communicator(ctx);
  binomial_reduce(output, count, everyone, ctx);
  binomial_broadcast(output, count, everyone, ctx);
}

}  // namespace ringsim
