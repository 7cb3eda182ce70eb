// A scenario's variants planned and checked before any case starts: per variant, its scenario under
// its model (every "optimized" order searched) and the routes of the platform under that model, each
// built once and used by the order search, the cost models and the findings. Planning every variant
// first is what makes a bad second variant stop the run before the first case simulates.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "topology_graph.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct VariantPlan {
  std::string name;  // empty when the scenario has no variants
  Scenario scenario;  // under the variant's model (its name suffixed), every "optimized" order searched
  // Compact topologies only (null/empty on SimGrid XML, used as written):
  std::optional<Topology> shaped;               // the topology as the model shapes its links
  std::shared_ptr<TopologyRoutes> routes;       // SHAPED under the model: order search, bottlenecks
  std::shared_ptr<TopologyRoutes> cost_routes;  // SHAPED without stack or background: cost models
};

// Plans SCENARIO alone (its variants ignored). Throws InputError "WHERE: model: ..." when the model
// does not fit the platform.
VariantPlan plan_variant(const Scenario& scenario, const Platform& platform, const std::string& where);

// Every variant of SCENARIO (or the scenario itself when it has none), in order, after checking that
// every placement fits. Throws InputError naming the scenario file, and the variant, for the first
// input that does not fit.
std::vector<VariantPlan> plan_variants(const Scenario& scenario, const Platform& platform);

}  // namespace ringsim
