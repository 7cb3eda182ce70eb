// Simulating a scenario: one smpirun per placement x algorithm, `jobs` at a time. Shared by
// `ringsim run`, `validate` and `calibrate`.
#pragma once

#include "../model/scenario.h"
#include "../results/case_results.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct SimulationOptions {
  int jobs = 1;
  bool quiet = false;
  std::optional<std::string> keep_dir;  // --out: keep platform, hostfiles, logs, reports, events
};

// Results in case order (placements outer, algorithms inner), or nullopt when a case failed (the
// failure is printed). Throws InputError/std::runtime_error for what prevents starting at all.
// With TIMELINE_FILE (--timeline), every case's steps are also written there as a Chrome trace.
// Placements in "optimized" order are searched first (optimized_order.h); the results carry the order.
std::optional<std::vector<CaseResult>> simulate_scenario(const Scenario& scenario, const Platform& platform,
                                                         const SimulationOptions& options,
                                                         const std::optional<std::string>& timeline_file = std::nullopt);

}  // namespace ringsim
