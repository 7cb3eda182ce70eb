#include "simulation.h"

#include "../analysis/algorithm_costs.h"
#include "../cases/simulated_case.h"
#include "../analysis/case_costs.h"
#include "../analysis/optimized_order.h"
#include "../analysis/platform_routes.h"
#include "../cases/case_jobs.h"
#include "../cases/work_directory.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../platform/plan_file.h"
#include "../results/chrome_timeline.h"
#include "s4u_case.h"
#include "size_limits.h"
#include "smpi_case.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

struct PreparedJobs {
  std::vector<CaseJob> jobs;
  std::vector<std::filesystem::path> events_files;
};

// Every placement x algorithm x collective of PLAN's scenario, in that order, each planned under the part of PLAN
// its algorithm runs under (variant_plan.h) on that part's platform file.
PreparedJobs prepare_jobs(const VariantPlan& plan, const PlatformFiles& platform_files, const ClusterLayout& layout,
                          const SmpiTools& tools, const WorkDirectory& work, bool record_events) {
  PreparedJobs prepared_jobs;
  const Scenario& scenario = plan.scenario;
  for (std::size_t p = 0; p < scenario.placements.size(); ++p)
    for (const auto& algorithm : scenario.algorithms)
      for (const Collective collective : scenario.collectives) {
        const VariantPlan& part = plan_for_algorithm(plan, algorithm);
        const SimulationCase spec = plan_simulated_case(part.scenario, part.scenario.placements[p], algorithm, layout, collective);
        const auto case_dir = work.path() / case_directory_name(prepared_jobs.jobs.size(), spec);
        const PreparedCase prepared =
            prepare_case(part.scenario, platform_files.of(plan, algorithm), spec, case_dir, tools, record_events);
        prepared_jobs.jobs.push_back({spec, prepared.command, prepared.report, prepared.progress});
        prepared_jobs.events_files.push_back(prepared.events);
      }
  return prepared_jobs;
}

void write_timeline(const std::string& file, const std::string& scenario_name, const PreparedJobs& prepared,
                    const std::vector<CaseResult>& results) {
  std::vector<TimelineCase> timeline;
  for (std::size_t i = 0; i < prepared.jobs.size(); ++i) {
    const PlacementSpec& placement = prepared.jobs[i].spec.placement;
    timeline.push_back({placement.ranks_text(), std::string(order_name(placement.order)), prepared.jobs[i].spec.algorithm,
                        results[i].ranks, read_events_file(prepared.events_files[i])});
  }
  write_file_atomically(file, chrome_timeline(scenario_name, timeline).dump() + "\n");
}

}  // namespace

// A compact topology's platform is planned here, under the scenario's model (which may scale its
// links or add process stacks), and built by the platform library (platform_library.h): its size
// grows with the nodes. SimGrid XML is used as written.
std::filesystem::path platform_file_of(const VariantPlan& plan, const Platform& platform, const std::filesystem::path& dir) {
  if (!plan.shaped) return platform.source;
  const auto file = dir / "platform-plan.json";
  write_file_atomically(file, plan_file_json(*plan.shaped, plan.scenario.model.platform_model()));
  return file;
}

PlatformFiles platform_files_of(const VariantPlan& plan, const Platform& platform, const std::filesystem::path& dir) {
  PlatformFiles files{platform_file_of(plan, platform, dir), {}};
  if (plan.nccl_part) {
    std::filesystem::create_directories(dir / "nccl-model");
    files.nccl_part = platform_file_of(*plan.nccl_part, platform, dir / "nccl-model");
  }
  return files;
}

const std::filesystem::path& PlatformFiles::of(const VariantPlan& plan, std::string_view algorithm) const {
  return &plan_for_algorithm(plan, algorithm) == &plan ? scenario : nccl_part;
}

void add_cost_models_by_part(std::vector<CaseResult>& results, const VariantPlan& plan) {
  if (!plan.shaped) return;
  for (const VariantPlan* part : {&plan, plan.nccl_part.get()}) {
    if (part == nullptr) continue;
    std::vector<std::size_t> mine;
    std::vector<CaseResult> cases;
    for (std::size_t i = 0; i < results.size(); ++i)
      if (&plan_for_algorithm(plan, results[i].spec.algorithm) == part) mine.push_back(i), cases.push_back(std::move(results[i]));
    add_cost_models(cases, *part->shaped, *part->cost_routes, part->scenario.model);
    for (std::size_t k = 0; k < mine.size(); ++k) results[mine[k]] = std::move(cases[k]);
  }
}

PreparedCase prepare_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                          const SimulationCase& spec, const std::filesystem::path& case_dir, const SmpiTools& tools,
                          bool record_events) {
  if (spec.engine == "s4u" || spec.engine == "maestro")
    return prepare_s4u_case(scenario, platform_file, spec, case_dir,
                            spec.engine == "s4u" ? find_s4u_program() : find_maestro_program(), record_events);
  return prepare_smpi_case(scenario, platform_file, spec, case_dir, tools, record_events);
}

std::optional<std::vector<CaseResult>> simulate_variant(const VariantPlan& plan, const Platform& platform,
                                                        const SimulationOptions& options,
                                                        const std::optional<std::string>& timeline_file) {
  const Scenario& scenario = plan.scenario;
  check_simulated_sizes(scenario);
  const SmpiTools tools = find_smpi_tools();
  WorkDirectory work(options.keep_dir);
  const PlatformFiles platform_files = platform_files_of(plan, platform, work.path());
  // Events are recorded for --out, and for --timeline even without it (then in the temporary directory).
  const bool record_events = options.keep_dir.has_value() || timeline_file.has_value();
  const PreparedJobs prepared = prepare_jobs(plan, platform_files, platform.layout, tools, work, record_events);
  if (!options.quiet)
    fmt::print(stderr, "ringsim: simulating {} — {} {}, {} {}, {} at a time\n", scenario.name, prepared.jobs.size(),
               plural(prepared.jobs.size(), "case", "cases"), scenario.sizes.size(),
               plural(scenario.sizes.size(), "size", "sizes"), options.jobs);
  auto results = run_case_jobs(prepared.jobs, scenario.sizes, options.jobs, options.quiet, "simulated");
  if (results) add_cost_models_by_part(*results, plan);
  if (results && timeline_file) write_timeline(*timeline_file, scenario.name, prepared, *results);
  return results;
}

std::optional<std::vector<CaseResult>> simulate_scenario(const Scenario& scenario, const Platform& platform,
                                                         const SimulationOptions& options,
                                                         const std::optional<std::string>& timeline_file) {
  return simulate_variant(plan_variant(scenario, platform, scenario.file.string()), platform, options, timeline_file);
}

}  // namespace ringsim
