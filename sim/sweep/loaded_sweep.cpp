#include "loaded_sweep.h"

#include "../analysis/variant_plan.h"
#include "sweep_directory.h"
#include "sweep_run.h"

#include <fmt/format.h>

namespace ringsim {

LoadedSweep load_and_expand(const std::string& file) {
  LoadedSweep loaded{load_sweep(file), {}, {}, {}};
  std::vector<ClusterLayout> layouts;
  std::vector<const Topology*> topologies;
  for (const auto& topology : loaded.spec.topologies) loaded.platforms.push_back(load_platform(topology));
  for (const Platform& platform : loaded.platforms) {
    layouts.push_back(platform.layout);
    topologies.push_back(platform.topology ? &*platform.topology : nullptr);
  }
  loaded.expanded = expand_sweep(loaded.spec, layouts, topologies);
  for (const SweepGroup& group : loaded.expanded.groups) {
    Scenario without_cases = group.scenario;  // the model's fit only: orders are searched when a shard runs
    without_cases.placements.clear();
    const std::string where = group.variant.empty() ? file : fmt::format("{}: variant \"{}\"", file, group.variant);
    plan_variant(without_cases, loaded.platforms[group.topology], where);
  }
  loaded.digest = sweep_digest(loaded.spec, loaded.expanded);
  return loaded;
}

double estimated_cases_seconds(const LoadedSweep& sweep, const std::vector<std::size_t>& cases) {
  double seconds = 0;
  for (std::size_t c : cases) {
    const SweepCase& one = sweep.expanded.cases[c];
    const Scenario& scenario = sweep.expanded.groups[one.group].scenario;
    seconds += estimated_case_seconds(scenario.placements[one.placement].total_ranks(), scenario.sizes,
                                      scenario.iterations + scenario.warmup);
  }
  return seconds;
}

}  // namespace ringsim
