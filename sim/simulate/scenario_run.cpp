#include "scenario_run.h"

#include <cctype>
#include <filesystem>
#include <fmt/format.h>

namespace ringsim {

std::optional<std::string> variant_output(const std::optional<std::string>& path, const std::string& variant, std::size_t index) {
  if (!path || variant.empty()) return path;
  std::string tag;
  for (char c : variant) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  const std::filesystem::path p(*path);
  return (p.parent_path() / fmt::format("{}.{}-{}{}", p.stem().string(), index + 1, tag, p.extension().string())).string();
}

RunResults run_scenario(const Scenario& scenario, const Platform& platform, const RunOptions& options) {
  // Every variant is checked before the first case starts.
  std::vector<VariantPlan> plans = plan_variants(scenario, platform);
  RunResults run;
  for (std::size_t v = 0; v < plans.size(); ++v) {
    const SimulationOptions simulation{options.jobs, options.quiet, variant_output(options.out_dir, plans[v].name, v), false};
    auto results = simulate_variant(plans[v], platform, simulation, variant_output(options.timeline, plans[v].name, v));
    if (!results) {
      run.complete = false;
      return run;
    }
    std::optional<ModelSettings> nccl_model;
    if (plans[v].nccl_part) nccl_model = plans[v].nccl_part->scenario.model;
    run.runs.push_back({plans[v].name, std::move(plans[v].scenario), std::move(plans[v].routes), std::move(*results), nccl_model});
  }
  run.findings = scenario_findings(scenario, run.runs);
  return run;
}

}  // namespace ringsim
