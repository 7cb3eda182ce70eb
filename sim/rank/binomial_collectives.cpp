// Broadcast from and reduce to rank 0 by binomial tree, the blocks reduce_bcast's allreduce runs
// one after the other (binomial_tree.cpp): ceil(lg N) rounds of the whole buffer on the longest path.
#include "collectives.h"
#include "group_collectives.h"

namespace ringsim {

void binomial_broadcast_collective(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.rank == 0) ctx.kernels.copy(output, input, count);
  binomial_broadcast(output, count, whole_communicator(ctx), ctx);
}

void binomial_reduce_collective(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);  // every rank's running sum; rank 0's is the result
  binomial_reduce(output, count, whole_communicator(ctx), ctx);
}

}  // namespace ringsim
