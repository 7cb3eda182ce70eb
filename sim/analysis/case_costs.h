// The alpha-beta-gamma view of simulated cases on a compact topology: each case's cost parameters,
// and the closed-form time of each size where the formula's assumption holds (algorithm_costs.h).
#pragma once

#include "../results/case_results.h"
#include "topology_graph.h"

#include <vector>

namespace ringsim {

// Sets every case's cost_model from TOPOLOGY (as the platform was generated: scaled bandwidths
// included; ROUTES are its routes without a platform model) and its sizes' closed_form_s when the
// placement has one rank per node, or, for hierarchical, the same number of ranks on every node it
// uses (each case's ring as planned: CaseRing); nccl_ring's is NCCL's own time model under MODEL's "nccl" settings. Hand-written SimGrid XML platforms have no Topology: callers skip this for them.
void add_cost_models(std::vector<CaseResult>& results, const Topology& topology, TopologyRoutes& routes,
                     const ModelSettings& model);

}  // namespace ringsim
