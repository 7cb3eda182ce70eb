#include "simulated_case.h"

#include "engine_capabilities.h"

namespace ringsim {

SimulationCase plan_simulated_case(const Scenario& scenario, const PlacementSpec& placement, const std::string& algorithm,
                                   const ClusterLayout& layout, Collective collective) {
  std::optional<NcclPlan> nccl = plan_nccl_case(scenario.model, placement, algorithm, collective);
  const bool paces = nccl && nccl->paces_slices();
  SimulationCase planned = planned_case(placement, algorithm, scenario.model.engine_for(placement.total_ranks(), algorithm_row(algorithm), paces), layout, collective);
  if (nccl) planned.nccl = std::make_shared<const NcclPlan>(std::move(*nccl));
  check_engine_capable(scenario, planned);
  return planned;
}

}  // namespace ringsim
