#include "case_costs.h"

#include "algorithm_costs.h"
#include "collective_costs.h"
#include "../nccl/nccl_plan.h"
#include "../model/algorithm_registry.h"

#include <algorithm>

namespace ringsim {
namespace {

// The closed form of one case at BYTES, or nullopt when its placement is not the formula's case.
std::optional<double> closed_form_of_case(const CaseResult& result, std::uint64_t bytes, const Topology& topology,
                                          TopologyRoutes& routes, const std::vector<std::string>& hosts) {
  const PlacementSpec& placement = result.spec.placement;
  const bool one_rank_per_node = placement.nodes_used() == placement.total_ranks();
  if (result.spec.collective != Collective::all_reduce)
    return one_rank_per_node ? collective_time_s(result.spec.collective, result.spec.algorithm, result.ranks, bytes, *result.cost_model)
                             : std::nullopt;
  if (one_rank_per_node)
    return closed_form_time_s(result.spec.algorithm, result.ranks, bytes, *result.cost_model);
  const AlgorithmRow* row = find_algorithm_row(result.spec.algorithm);
  if (row == nullptr || row->closed_form != ClosedForm::hierarchical || !placement.same_ranks_on_each_node()) return std::nullopt;
  const auto inside = intra_node_cost_parameters(routes, topology, hosts);
  if (!inside) return std::nullopt;
  const int nodes = placement.nodes_used();
  return hierarchical_time_s(nodes, placement.total_ranks() / nodes, bytes, *result.cost_model, *inside);
}

}  // namespace

void add_cost_models(std::vector<CaseResult>& results, const Topology& topology, TopologyRoutes& routes,
                     const ModelSettings& model) {
  for (CaseResult& result : results) {
    const std::vector<std::string>& hosts = result.spec.ring.hosts;
    result.cost_model = cost_parameters(routes, topology, hosts);
    // NCCL's own time model, whatever the placement: its ring is node-contiguous by construction,
    // its trees chain each node. Also what ran: the algorithm and protocol (NCCL's pick for nccl,
    // the protocol by size for nccl_ring and nccl_tree), which the launcher passed the rank: read off
    // the case's plan.
    if (const auto plan = nccl_plan_of(result.spec, model)) {
      for (SizeResult& size : result.sizes) {
        if (!plan->nccl_case) continue;
        const NcclChoice choice = plan->choice_at(size.bytes);
        if (plan->p2p) {  // NCCL's point-to-point schedule: NCCL's model has no time for it
          size.nccl_ran = "P2P/Simple";
          continue;
        }
        size.closed_form_s = choice.prediction.time_s;
        size.nccl_ran = nccl_choice_text(choice);
      }
      continue;
    }
    for (SizeResult& size : result.sizes) size.closed_form_s = closed_form_of_case(result, size.bytes, topology, routes, hosts);
  }
}

}  // namespace ringsim
