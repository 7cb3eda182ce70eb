#include "trace_validation.h"

#include "../common/units.h"
#include "../model/algorithm_registry.h"
#include "asked_sizes.h"

#include <fmt/format.h>

namespace ringsim {

ValidationOptions options_for_trace(ValidationOptions options, const GroupedTrace& grouped, std::string_view format) {
  const std::uint64_t asked = options.min_bytes_as_given();
  const std::uint64_t from = judged_from_bytes(grouped, format, asked);
  options.min_bytes = from;
  options.min_bytes_asked = from == asked ? 0 : asked;
  return options;
}

std::string judged_from_text(const ValidationOptions& options) {
  if (!options.min_bytes_asked) return format_bytes(options.min_bytes);
  return fmt::format("{} (nccl-tests' row {}B)", format_bytes(options.min_bytes_asked), options.min_bytes);
}

Validation compare_with_trace(const GroupedTrace& grouped, const std::vector<CaseResult>& results,
                              const ValidationOptions& options) {
  Validation validation;
  std::vector<ComparedSize> every_size;
  for (std::size_t c = 0; c < grouped.cases.size(); ++c) {
    const MeasuredCase& measured = grouped.cases[c];
    const CaseResult& result = results[c];
    ComparedCase compared{measured.placement.label(), result.ranks, {}};
    for (const SizeResult& size : result.sizes) {
      auto it = measured.median_time_s.find(size.bytes);
      if (it == measured.median_time_s.end()) continue;
      ComparedSize row{measured.placement.ranks_text(), std::string(order_name(measured.placement.order)),
                       result.ranks, size.bytes, it->second, size.median_s()};
      if (size.nccl_ran) {  // NCCL's algorithms: their closed form is NCCL's own model
        row.nccl_model_s = size.closed_form_s;
        row.nccl_ran = size.nccl_ran;
      }
      compared.sizes.push_back(std::move(row));
    }
    every_size.insert(every_size.end(), compared.sizes.begin(), compared.sizes.end());
    for (RegimeSplit& regime : split_by_regime(compared.sizes)) validation.regimes.push_back(std::move(regime));
    validation.cases.push_back(std::move(compared));
  }
  validation.all = summarize(every_size, 0);
  validation.judged = summarize(every_size, options.min_bytes);
  validation.pass = validation.judged.median_abs_error <= options.tolerance;
  // NCCL's own model, summarised as if it were the simulation.
  std::vector<ComparedSize> by_model;
  for (const ComparedSize& row : every_size) {
    if (!row.nccl_model_s) break;
    by_model.push_back(row);
    by_model.back().simulated_s = *row.nccl_model_s;
  }
  if (!every_size.empty() && by_model.size() == every_size.size()) {
    validation.nccl_model_all = summarize(by_model, 0);
    validation.nccl_model_judged = summarize(by_model, options.min_bytes);
  }
  return validation;
}

std::string validation_algorithm(const Scenario& scenario) {
  return scenario.algorithms.size() == 1 ? scenario.algorithms.front() : algorithm_name(AlgorithmId::ring);
}

Scenario scenario_at_trace(const Scenario& scenario, const GroupedTrace& grouped) {
  Scenario simulated = scenario;
  simulated.placements.clear();
  for (const auto& measured : grouped.cases) simulated.placements.push_back(measured.placement);
  simulated.algorithms = {validation_algorithm(scenario)};
  simulated.collectives = {grouped.collective};
  simulated.sizes = grouped.sizes;
  // One timed call per size, no warm-up: the engines are deterministic and every timed call starts after a
  // barrier on an idle network, so the scenario's repeats give the same time to ~1e-15 (a test checks
  // it) and only the median is compared. Repeating them cost 6 times the calls under the defaults.
  simulated.iterations = 1;
  simulated.warmup = 0;
  simulated.check = false;  // only times are compared: no buffer holds values (no copies, no sums)
  return simulated;
}

std::optional<Validation> validate_against_trace(const Scenario& scenario, const Platform& platform,
                                                 const GroupedTrace& grouped, const ValidationOptions& options) {
  const Scenario simulated = scenario_at_trace(scenario, grouped);
  check_placements_fit(simulated, platform.layout);
  const auto results = simulate_scenario(simulated, platform, {options.jobs, options.quiet, std::nullopt, true});
  if (!results) return std::nullopt;
  Validation validation = compare_with_trace(grouped, *results, options);
  validation.algorithm = simulated.algorithms.front();
  return validation;
}

}  // namespace ringsim
