#include "variant_plan.h"

#include "algorithm_costs.h"
#include "../nccl/nccl_plan.h"
#include "optimized_order.h"
#include "platform_routes.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

std::optional<ModelSettings> separate_nccl_model(const ModelSettings& model, const std::vector<std::string>& algorithms) {
  const ModelSettings nccl_model = model.for_nccl_algorithms();
  const auto nccl_count = std::count_if(algorithms.begin(), algorithms.end(), [](const std::string& a) { return is_nccl_algorithm(a); });
  if (nccl_model.network == model.network || nccl_count == 0 || static_cast<std::size_t>(nccl_count) == algorithms.size())
    return std::nullopt;
  return nccl_model;
}

namespace {

// SCENARIO's NCCL algorithms alone under their own model (separate_nccl_model), or nullopt.
std::optional<Scenario> nccl_part_of(const Scenario& scenario) {
  const auto nccl_model = separate_nccl_model(scenario.model, scenario.algorithms);
  if (!nccl_model) return std::nullopt;
  Scenario part = scenario;
  part.algorithms.clear();
  for (const std::string& algorithm : scenario.algorithms)
    if (is_nccl_algorithm(algorithm)) part.algorithms.push_back(algorithm);
  part.model = *nccl_model;
  return part;
}

}  // namespace

const VariantPlan& plan_for_algorithm(const VariantPlan& plan, std::string_view algorithm) {
  return plan.nccl_part && is_nccl_algorithm(algorithm) ? *plan.nccl_part : plan;
}

VariantPlan plan_variant(const Scenario& scenario, const Platform& platform, const std::string& where) {
  VariantPlan plan;
  // On SimGrid XML, used as written, the model made for NCCL cannot reshape the links: one model for all.
  if (const auto part = platform.topology ? nccl_part_of(scenario) : std::nullopt)
    plan.nccl_part = std::make_shared<const VariantPlan>(plan_variant(*part, platform, where));
  if (!platform.topology) {
    check_model_fits(platform, scenario.model, where);  // refuses a model that would reshape SimGrid XML
    plan.scenario = with_optimized_orders(scenario, platform);
    return plan;
  }
  Scenario with_facts = scenario;
  with_facts.model.adopt_topology_gpus(*platform.topology);
  plan.shaped = with_facts.model.shape(*platform.topology);
  with_facts.model.nccl_facts = nccl_topology_facts(*plan.shaped);  // nccl_ring's defaults and protocol choice
  const PlatformModel model = with_facts.model.platform_model();
  plan.routes = routes_under_model(*plan.shaped, model, where);
  // The cost models read the links alone; without a stack or background they are the same routes.
  const bool links_alone = !model.process_stack && !model.nic_half_duplex && model.background.empty();
  if (links_alone) plan.cost_routes = plan.routes;
  else plan.cost_routes = routes_under_model(*plan.shaped, PlatformModel{}, where);
  plan.scenario = with_optimized_orders(with_facts, platform.layout, *plan.routes);
  return plan;
}

std::vector<VariantPlan> plan_variants(const Scenario& scenario, const Platform& platform) {
  check_placements_fit(scenario, platform.layout);
  std::vector<VariantPlan> plans;
  if (scenario.variants.empty()) plans.push_back(plan_variant(scenario, platform, scenario.file.string()));
  for (const ScenarioVariant& variant : scenario.variants) {
    const std::string where = fmt::format("{}: variant \"{}\"", scenario.file.string(), variant.name);
    plans.push_back(plan_variant(scenario_for_variant(scenario, variant), platform, where));
    plans.back().name = variant.name;
  }
  return plans;
}

}  // namespace ringsim
