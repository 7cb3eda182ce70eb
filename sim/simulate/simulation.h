// Simulating a scenario: one smpirun per placement x algorithm, `jobs` at a time. Shared by
// `ringsim run`, `validate` and `calibrate`.
#pragma once

#include "../analysis/variant_plan.h"
#include "../model/scenario.h"
#include "../results/case_results.h"
#include "smpi_case.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct SimulationOptions {
  int jobs = 1;
  bool quiet = false;
  std::optional<std::string> keep_dir;  // --out: keep platform, hostfiles, logs, reports, events
  // Split each case's sizes across the jobs (size_parts.h) when there are fewer cases than jobs. A
  // size's time then moves in its last bits (the simulated clock's offset), so `run`, whose results
  // are byte-identical whatever --jobs, keeps its cases whole; `validate` splits.
  bool split_sizes = false;
};

// Results in case order (placements outer, algorithms inner), or nullopt when a case failed (the
// failure is printed). Throws std::runtime_error for what prevents starting at all (no smpirun).
// With TIMELINE_FILE (--timeline), every case's steps are also written there as a Chrome trace.
// PLAN is checked already (variant_plan.h): its orders searched, its routes built.
std::optional<std::vector<CaseResult>> simulate_variant(const VariantPlan& plan, const Platform& platform,
                                                        const SimulationOptions& options,
                                                        const std::optional<std::string>& timeline_file = std::nullopt);

// The same for SCENARIO as written (its variants ignored), planned first: InputError when its model
// does not fit the platform.
std::optional<std::vector<CaseResult>> simulate_scenario(const Scenario& scenario, const Platform& platform,
                                                         const SimulationOptions& options,
                                                         const std::optional<std::string>& timeline_file = std::nullopt);

// Several plans, each at its own sizes on its own platform (PLATFORMS[i] for PLANS[i]), as one pool
// of cases `jobs` at a time (each case's sizes split as OPTIONS says): results per plan, in PLANS'
// order, each case's sizes in its plan's order; nullopt when a case failed.
std::optional<std::vector<std::vector<CaseResult>>> simulate_variants_together(const std::vector<VariantPlan>& plans,
                                                                               const std::vector<Platform>& platforms,
                                                                               const SimulationOptions& options);

// Several scenarios on one platform, each with its own placements, algorithms, collectives and sizes
// (e.g. a suite's collectives, each at its run's sizes), planned first and simulated as one pool of
// cases `jobs` at a time, sizes split as OPTIONS says: results per scenario, in SCENARIOS' order;
// nullopt when a case failed.
std::optional<std::vector<std::vector<CaseResult>>> simulate_scenarios_together(const std::vector<Scenario>& scenarios,
                                                                                const Platform& platform,
                                                                                const SimulationOptions& options);

// The platform SimGrid loads for PLAN: the topology as its model shapes it, planned into DIR/platform-plan.json
// (compact topologies), or the SimGrid XML as written.
std::filesystem::path platform_file_of(const VariantPlan& plan, const Platform& platform, const std::filesystem::path& dir);

// The platform files of PLAN and of its NCCL part (variant_plan.h), which the model made for NCCL
// shapes otherwise: DIR/platform-plan.json and DIR/nccl-model/platform-plan.json.
struct PlatformFiles {
  std::filesystem::path scenario;
  std::filesystem::path nccl_part;  // empty without an NCCL part
  // The file ALGORITHM's cases of PLAN load.
  const std::filesystem::path& of(const VariantPlan& plan, std::string_view algorithm) const;
};
PlatformFiles platform_files_of(const VariantPlan& plan, const Platform& platform, const std::filesystem::path& dir);

// The cost models and closed forms of RESULTS (cases of PLAN), each under the model its part ran.
void add_cost_models_by_part(std::vector<CaseResult>& results, const VariantPlan& plan);

// One case's files in CASE_DIR and its command, on the engine SPEC names (smpirun or the S4U engine).
PreparedCase prepare_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                          const SimulationCase& spec, const std::filesystem::path& case_dir, const SmpiTools& tools,
                          bool record_events);

}  // namespace ringsim
