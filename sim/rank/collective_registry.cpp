// From a collective and an algorithm name to code: all_reduce's names go to allreduce_registry.cpp,
// the others' through collective_catalog.h's method to one function each.
#include "collective_catalog.h"
#include "collective_registry.h"
#include "collectives.h"

namespace ringsim {
namespace {

AllreduceFn code_of(CollectiveMethod method) {
  switch (method) {
    case CollectiveMethod::ring_all_gather: return &ring_all_gather;
    case CollectiveMethod::ring_reduce_scatter: return &ring_reduce_scatter;
    case CollectiveMethod::binomial_broadcast: return &binomial_broadcast_collective;
    case CollectiveMethod::binomial_reduce: return &binomial_reduce_collective;
    case CollectiveMethod::chain_broadcast: return &chain_broadcast;
    case CollectiveMethod::chain_reduce: return &chain_reduce;
    case CollectiveMethod::pairwise_alltoall: return &pairwise_alltoall;
    case CollectiveMethod::linear_alltoall: return &linear_alltoall;
    case CollectiveMethod::ring_shift: return &ring_shift_sendrecv;
    case CollectiveMethod::nccl_ring_all_gather: return &nccl_ring_all_gather;
    case CollectiveMethod::nccl_ring_reduce_scatter: return &nccl_ring_reduce_scatter;
    case CollectiveMethod::nccl_p2p_alltoall: return &nccl_p2p_alltoall;
    case CollectiveMethod::nccl_p2p_sendrecv: return &nccl_p2p_sendrecv;
    case CollectiveMethod::nccl_ring_broadcast: return &nccl_ring_broadcast;
    case CollectiveMethod::nccl_ring_reduce: return &nccl_ring_reduce;
    case CollectiveMethod::nccl_nvls_all_gather: return &nccl_nvls_all_gather;
    case CollectiveMethod::nccl_nvls_reduce_scatter: return &nccl_nvls_reduce_scatter;
    case CollectiveMethod::nccl_all_gather: return &nccl_all_gather;
    case CollectiveMethod::nccl_reduce_scatter: return &nccl_reduce_scatter;
    case CollectiveMethod::nccl_pat_all_gather: return &nccl_pat_all_gather;
    case CollectiveMethod::nccl_pat_reduce_scatter: return &nccl_pat_reduce_scatter;
  }
  return nullptr;
}

}  // namespace

AllreduceAlgorithm find_collective_algorithm(Collective collective, std::string_view name) {
  if (collective == Collective::all_reduce) return find_allreduce(name);
  const CollectiveAlgorithmInfo* info = find_collective_algorithm_info(collective, name);
  if (info == nullptr) return {};
  return {code_of(info->method), true, is_nccl_method(info->method)};
}

}  // namespace ringsim
