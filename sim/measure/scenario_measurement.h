// `ringsim measure`'s work without its output: the launch checked, the emulated cluster made (if
// asked), every case run with Open MPI one after the other, and the "source" block that says how.
#pragma once

#include "../results/case_results.h"
#include "measure_launch.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace ringsim {

struct ScenarioMeasurement {
  Scenario scenario;                               // as measured: "optimized" orders found
  std::optional<std::vector<CaseResult>> results;  // nullopt when a case failed (reported on stderr)
  nlohmann::json source;                           // the results JSON's "source"; null when a case failed
};

// Throws InputError before the cluster is made or any case runs when the scenario, the hosts or this
// machine cannot measure it. The emulated cluster is torn down before this returns.
ScenarioMeasurement measure_scenario(const Scenario& as_written, const Platform& platform, const MeasureOptions& options);

}  // namespace ringsim
