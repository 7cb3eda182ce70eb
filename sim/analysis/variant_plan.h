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
#include <string_view>
#include <vector>

namespace ringsim {

struct VariantPlan {
  std::string name;  // empty when the scenario has no variants
  Scenario scenario;  // under the variant's model (its name suffixed), every "optimized" order searched
  // Compact topologies only (null/empty on SimGrid XML, used as written):
  std::optional<Topology> shaped;               // the topology as the model shapes its links
  std::shared_ptr<TopologyRoutes> routes;       // SHAPED under the model: order search, bottlenecks
  std::shared_ptr<TopologyRoutes> cost_routes;  // SHAPED without stack or background: cost models
  // A scenario that runs NCCL's algorithms beside MPI ones and names no network: NCCL's run under the
  // model made for NCCL (ModelSettings::for_nccl_algorithms), planned here as a scenario of their own
  // (the same placements, NCCL's algorithms only). Null otherwise: every case runs under SCENARIO's model.
  std::shared_ptr<const VariantPlan> nccl_part;
};

// The model NCCL's ALGORITHMS run under beside MODEL, when it is another: ALGORITHMS mix NCCL's with
// others and MODEL names no network (ModelSettings::for_nccl_algorithms); else nullopt.
std::optional<ModelSettings> separate_nccl_model(const ModelSettings& model, const std::vector<std::string>& algorithms);

// The plan ALGORITHM's cases run under: PLAN's NCCL part for NCCL's algorithms when it has one, else PLAN.
const VariantPlan& plan_for_algorithm(const VariantPlan& plan, std::string_view algorithm);

// Plans SCENARIO alone (its variants ignored). Throws InputError "WHERE: model: ..." when the model
// does not fit the platform.
VariantPlan plan_variant(const Scenario& scenario, const Platform& platform, const std::string& where);

// Every variant of SCENARIO (or the scenario itself when it has none), in order, after checking that
// every placement fits. Throws InputError naming the scenario file, and the variant, for the first
// input that does not fit.
std::vector<VariantPlan> plan_variants(const Scenario& scenario, const Platform& platform);

}  // namespace ringsim
