#include "suite_validation.h"

#include "../model/algorithm_registry.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

std::optional<std::string> suite_algorithm(const std::string& algorithm, Collective collective, std::string& why) {
  if (runs_collective(algorithm, collective)) return algorithm;
  // NCCL runs each collective its own way: a scenario of NCCL's ring (or tree) means NCCL, whose choice
  // (`nccl`) holds the algorithm of each collective that ringsim models.
  const std::string choice = algorithm_name(AlgorithmId::nccl);
  if (is_nccl_algorithm(algorithm) && runs_collective(choice, collective)) return choice;
  const std::string name(collective_name(collective));
  why = is_nccl_algorithm(algorithm)
            ? fmt::format("ringsim has no model of NCCL's {} ({} and {} have no version of it; its algorithms: {})", name,
                          algorithm, choice, collective_algorithms_text(collective))
            : fmt::format("algorithm {} has no version for collective {} (its algorithms: {})", algorithm, name,
                          collective_algorithms_text(collective));
  return std::nullopt;
}

bool validate_suite(const Scenario& scenario, const Platform& platform, std::vector<SuiteRun>& runs,
                    const ValidationOptions& options) {
  std::vector<Scenario> simulated;
  std::vector<SuiteRun*> simulated_runs;
  for (SuiteRun& run : runs) {
    if (!run.simulated()) continue;
    Scenario mine = scenario;
    mine.algorithms = {run.algorithm};
    simulated.push_back(scenario_at_trace(mine, run.input->grouped));
    check_placements_fit(simulated.back(), platform.layout);
    simulated_runs.push_back(&run);
  }
  if (simulated.empty()) return true;
  const auto results = simulate_scenarios_together(simulated, platform, {options.jobs, options.quiet, std::nullopt, true});
  if (!results) return false;
  for (std::size_t i = 0; i < simulated_runs.size(); ++i) {
    SuiteRun& run = *simulated_runs[i];
    run.options = options_for_trace(options, run.input->grouped, run.input->trace.format);
    run.validation = compare_with_trace(run.input->grouped, (*results)[i], run.options);
    run.validation->algorithm = run.algorithm;
  }
  return true;
}

bool suite_passes(const std::vector<SuiteRun>& runs) {
  const auto simulated = [](const SuiteRun& run) { return run.validation.has_value(); };
  const auto passes = [](const SuiteRun& run) { return !run.validation || run.validation->pass; };
  return std::any_of(runs.begin(), runs.end(), simulated) && std::all_of(runs.begin(), runs.end(), passes);
}

}  // namespace ringsim
