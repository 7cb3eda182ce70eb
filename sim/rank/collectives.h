// The collectives other than allreduce (collective_catalog.h), one file per algorithm, on the same
// harness and context as the allreduce algorithms (allreduce.h). COUNT is the collective's size in
// floats as nccl-tests counts it, and every buffer holds COUNT floats; each reads and writes them as
// nccl-tests lays them out:
// - all_gather: input = this rank's piece (EvenPieces(count, N)[rank], at input[0]); output = all N pieces.
// - reduce_scatter: input = all N pieces; output = the sum of this rank's piece, at output[0].
// - broadcast: rank 0's input to every rank's output. reduce: the sum of the inputs in rank 0's output.
// - alltoall: block p (count / N floats at p x count / N) of rank r's input goes to block r of rank
//   p's output; the count % N floats left over move nowhere.
// - sendrecv: each rank's input to the output of rank + 1.
#pragma once

#include "allreduce.h"

namespace ringsim {

void ring_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void ring_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void binomial_broadcast_collective(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void binomial_reduce_collective(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void chain_broadcast(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void chain_reduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void pairwise_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void linear_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void ring_shift_sendrecv(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_ring_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_ring_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_nvls_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_nvls_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_pat_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_pat_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
// nccl: NCCL's ring, or NVLS or PAT where the launcher's choice for the size says so (--nccl-algorithms).
void nccl_all_gather(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_reduce_scatter(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_ring_broadcast(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_ring_reduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_p2p_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_p2p_sendrecv(const float* input, float* output, std::size_t count, AllreduceContext& ctx);

}  // namespace ringsim
