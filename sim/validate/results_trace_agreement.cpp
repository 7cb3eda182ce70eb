#include "results_trace_agreement.h"

#include "../common/input_error.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

namespace ringsim {
namespace {

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ignored;
  if (std::filesystem::equivalent(a, b, ignored)) return true;
  return std::filesystem::weakly_canonical(a, ignored) == std::filesystem::weakly_canonical(b, ignored);
}

}  // namespace

void check_results_agree_with_scenario(const MeasuredTrace& trace, const std::string& trace_file, const Scenario& scenario) {
  if (trace.format != "ringsim") return;
  if (!trace.topology.empty() && !same_file(trace.topology, scenario.topology))
    throw InputError(fmt::format("{}: /topology: the results were simulated on {}, but scenario {} is on {}: give a scenario "
                                 "on the results' topology", trace_file, trace.topology, scenario.file.string(),
                                 scenario.topology.string()));
  if (scenario.placements.empty()) return;
  std::set<std::string> listed;
  for (const PlacementSpec& placement : scenario.placements) listed.insert(placement.label());
  std::set<std::string> missing;
  for (const MeasuredPoint& point : trace.points) {
    const std::string label = fmt::format("{} {}", point.placement, point.order);
    if (!listed.count(label)) missing.insert(label);
  }
  if (!missing.empty())
    throw InputError(fmt::format("{}: /results: placements {} are not among scenario {}'s ({}): list them in the scenario, "
                                 "or leave its placements out to take the file's", trace_file, fmt::join(missing, ", "),
                                 scenario.file.string(), fmt::join(listed, ", ")));
}

}  // namespace ringsim
