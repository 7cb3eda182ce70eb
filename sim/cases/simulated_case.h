// A case of a scenario planned as simulate and sweep run it, in one place: NCCL's plan made once (for
// NCCL's algorithms), the engine chosen by what the case needs (ModelSettings::engine_for: a rank program
// that paces its slices needs an engine that bounds such waits) and the ring laid on the layout.
#pragma once

#include "../model/scenario.h"
#include "../results/case_results.h"

#include <string>

namespace ringsim {

// PLACEMENT (one of SCENARIO's) running ALGORITHM on LAYOUT. Precondition: the placement fits.
SimulationCase plan_simulated_case(const Scenario& scenario, const PlacementSpec& placement, const std::string& algorithm,
                                   const ClusterLayout& layout, Collective collective = Collective::all_reduce);

}  // namespace ringsim
