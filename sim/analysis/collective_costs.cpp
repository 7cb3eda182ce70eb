#include "collective_costs.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ringsim {
namespace {

// ceil(lg p): the rounds of a binomial tree over p ranks.
double binomial_rounds(double p) { return std::bit_width(static_cast<unsigned>(p) - 1); }

double method_time(CollectiveMethod method, double p, double n, const CostParameters& c) {
  const double a = c.alpha_s, b = c.beta_s_per_byte, g = c.gamma_s_per_byte;
  switch (method) {
    // p-1 steps of one piece n/p to the next rank (and its addition for reduce-scatter).
    case CollectiveMethod::ring_all_gather: return (p - 1) * (a + n / p * b);
    case CollectiveMethod::ring_reduce_scatter: return (p - 1) * (a + n / p * (b + g));
    // ceil(lg p) rounds of the whole buffer on the path to the farthest leaf.
    case CollectiveMethod::binomial_broadcast: return binomial_rounds(p) * (a + n * b);
    case CollectiveMethod::binomial_reduce: return binomial_rounds(p) * (a + n * (b + g));
    // k segments of s: the first crosses p-1 links, the others follow one hop behind each other.
    case CollectiveMethod::chain_broadcast:
    case CollectiveMethod::chain_reduce: {
      const double s = std::min(static_cast<double>(kChainSegmentBytes), n);
      const double k = std::ceil(n / s);
      const double add = method == CollectiveMethod::chain_reduce ? s * g : 0;
      return (p - 2 + k) * (a + s * b + add);
    }
    // p-1 exchanges of one block n/p each way.
    case CollectiveMethod::pairwise_alltoall: return (p - 1) * (a + n / p * b);
    // the p-1 blocks share the rank's link at once: one latency, the same bytes.
    case CollectiveMethod::linear_alltoall: return a + (p - 1) * n / p * b;
    case CollectiveMethod::ring_shift: return a + n * b;
    // NCCL's rings: NCCL's own time model prices them (nccl_plan.h), as it does nccl_ring's allreduce.
    case CollectiveMethod::nccl_ring_all_gather:
    case CollectiveMethod::nccl_ring_reduce_scatter:
    case CollectiveMethod::nccl_p2p_alltoall:
    case CollectiveMethod::nccl_p2p_sendrecv:
    case CollectiveMethod::nccl_ring_broadcast:
    case CollectiveMethod::nccl_ring_reduce:
    case CollectiveMethod::nccl_nvls_all_gather:
    case CollectiveMethod::nccl_nvls_reduce_scatter:
    case CollectiveMethod::nccl_all_gather:
    case CollectiveMethod::nccl_reduce_scatter:
    case CollectiveMethod::nccl_pat_all_gather:
    case CollectiveMethod::nccl_pat_reduce_scatter: break;
  }
  return 0;
}

}  // namespace

std::optional<double> collective_time_s(Collective collective, std::string_view algorithm, int ranks, std::uint64_t bytes,
                                        const CostParameters& c) {
  const CollectiveAlgorithmInfo* info = find_collective_algorithm_info(collective, algorithm);
  if (info == nullptr || is_nccl_method(info->method)) return std::nullopt;
  if (ranks <= 1) return 0.0;  // a local copy
  return method_time(info->method, ranks, static_cast<double>(bytes), c);
}

}  // namespace ringsim
