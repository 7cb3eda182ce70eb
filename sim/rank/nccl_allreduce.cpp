// "nccl": the algorithm NCCL would run at this size. The launcher evaluates NCCL's tuning model
// (sim/nccl/tuning/nccl_choice.h) and passes the choice per size (--nccl-algorithms); the rank program
// runs NCCL's ring, tree, NVLS or NVLS tree with it; all-gather and reduce-scatter its ring, NVLS or PAT.
#include "allreduce.h"
#include "collectives.h"

namespace ringsim {

void nccl_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.nccl.algorithm == NcclAlgorithmKind::tree) nccl_tree_allreduce(input, output, count, ctx);
  else if (ctx.nccl.algorithm == NcclAlgorithmKind::nvls) nccl_nvls_allreduce(input, output, count, ctx);
  else if (ctx.nccl.algorithm == NcclAlgorithmKind::nvls_tree) nccl_nvls_tree_allreduce(input, output, count, ctx);
  else nccl_ring_allreduce(input, output, count, ctx);
}

void nccl_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.nccl.algorithm == NcclAlgorithmKind::nvls) nccl_nvls_all_gather(input, output, count, ctx);
  else if (ctx.nccl.algorithm == NcclAlgorithmKind::pat) nccl_pat_all_gather(input, output, count, ctx);
  else nccl_ring_all_gather(input, output, count, ctx);
}

void nccl_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.nccl.algorithm == NcclAlgorithmKind::nvls) nccl_nvls_reduce_scatter(input, output, count, ctx);
  else if (ctx.nccl.algorithm == NcclAlgorithmKind::pat) nccl_pat_reduce_scatter(input, output, count, ctx);
  else nccl_ring_reduce_scatter(input, output, count, ctx);
}

}  // namespace ringsim
