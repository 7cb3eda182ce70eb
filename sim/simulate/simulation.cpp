#include "simulation.h"

#include "../analysis/algorithm_costs.h"
#include "../cases/simulated_case.h"
#include "../analysis/case_costs.h"
#include "../analysis/optimized_order.h"
#include "../analysis/platform_routes.h"
#include "../cases/case_jobs.h"
#include "../cases/size_parts.h"
#include "../cases/work_directory.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../platform/plan_file.h"
#include "../results/chrome_timeline.h"
#include "s4u_case.h"
#include "size_limits.h"
#include "smpi_case.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

struct PreparedJobs {
  std::vector<CaseJob> jobs;
  std::vector<std::filesystem::path> events_files;
  std::vector<std::size_t> case_of_job;  // the case (placement x algorithm) whose sizes, or part of them, each job runs
  std::size_t cases = 0;
};

// How many parts each case's sizes are split into (size_parts.h): enough for the jobs to run at once. A recorded case (--out, --timeline) stays whole: its events and directory are one per case.
std::size_t parts_per_case(std::size_t cases, const SimulationOptions& options, bool record_events) {
  const int parallel = options.jobs;
  if (!options.split_sizes || record_events || cases == 0 || parallel <= 1) return 1;
  return (static_cast<std::size_t>(parallel) + cases - 1) / cases;
}

std::size_t cases_of(const Scenario& scenario) {
  return scenario.placements.size() * scenario.algorithms.size() * scenario.collectives.size();
}

// Every placement x algorithm x collective of PLAN's scenario, in that order, each planned under the part of PLAN
// its algorithm runs under (variant_plan.h) on that part's platform file, its sizes split into PARTS.
PreparedJobs prepare_jobs(const VariantPlan& plan, const PlatformFiles& platform_files, const ClusterLayout& layout,
                          const SmpiTools& tools, const std::filesystem::path& work, bool record_events, std::size_t parts) {
  PreparedJobs prepared_jobs;
  const Scenario& scenario = plan.scenario;
  prepared_jobs.cases = cases_of(scenario);
  std::size_t case_index = 0;
  for (std::size_t p = 0; p < scenario.placements.size(); ++p)
    for (const auto& algorithm : scenario.algorithms)
      for (const Collective collective : scenario.collectives) {
        const VariantPlan& part = plan_for_algorithm(plan, algorithm);
        const SimulationCase spec = plan_simulated_case(part.scenario, part.scenario.placements[p], algorithm, layout, collective);
        const auto split = split_sizes(part.scenario.sizes, parts);
        for (const auto& sizes : split) {
          Scenario sized = part.scenario;
          sized.sizes = sizes;
          const auto case_dir = work / case_directory_name(prepared_jobs.jobs.size(), spec);
          const PreparedCase prepared = prepare_case(sized, platform_files.of(plan, algorithm), spec, case_dir, tools, record_events);
          prepared_jobs.jobs.push_back({spec, prepared.command, prepared.report, prepared.progress,
                                        split.size() > 1 ? sizes : std::vector<std::uint64_t>{}, part.scenario.sizes.size()});
          prepared_jobs.events_files.push_back(prepared.events);
          prepared_jobs.case_of_job.push_back(case_index);
        }
        ++case_index;
      }
  return prepared_jobs;
}

// The jobs' results joined into one per case, each case's sizes in SIZES' order.
std::vector<CaseResult> joined_cases(std::vector<CaseResult> job_results, const PreparedJobs& prepared,
                                     const std::vector<std::uint64_t>& sizes) {
  if (job_results.size() == prepared.cases) return job_results;
  std::vector<std::optional<CaseResult>> cases(prepared.cases);
  for (std::size_t j = 0; j < job_results.size(); ++j) {
    std::optional<CaseResult>& joined = cases[prepared.case_of_job[j]];
    if (!joined) {
      joined = std::move(job_results[j]);
      continue;
    }
    for (SizeResult& size : job_results[j].sizes) joined->sizes.push_back(std::move(size));
  }
  std::vector<CaseResult> results;
  for (auto& joined : cases) {
    put_in_size_order(joined->sizes, sizes);
    results.push_back(std::move(*joined));
  }
  return results;
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
  const PreparedJobs prepared = prepare_jobs(plan, platform_files, platform.layout, tools, work.path(), record_events,
                                             parts_per_case(cases_of(scenario), options, record_events));
  if (!options.quiet)
    fmt::print(stderr, "ringsim: simulating {} — {} {}, {} {}{}, {} at a time\n", scenario.name, prepared.cases,
               plural(prepared.cases, "case", "cases"), scenario.sizes.size(), plural(scenario.sizes.size(), "size", "sizes"),
               prepared.jobs.size() == prepared.cases ? "" : fmt::format(" in {} parts", prepared.jobs.size()), options.jobs);
  auto results = run_case_jobs(prepared.jobs, scenario.sizes, options.jobs, options.quiet, "simulated");
  if (results) results = joined_cases(std::move(*results), prepared, scenario.sizes);
  if (results) add_cost_models_by_part(*results, plan);
  if (results && timeline_file) write_timeline(*timeline_file, scenario.name, prepared, *results);
  return results;
}

std::optional<std::vector<std::vector<CaseResult>>> simulate_variants_together(const std::vector<VariantPlan>& plans,
                                                                               const std::vector<Platform>& platforms,
                                                                               const SimulationOptions& options) {
  const SmpiTools tools = find_smpi_tools();
  WorkDirectory work(options.keep_dir);
  std::vector<CaseJob> jobs;
  std::vector<PreparedJobs> prepared_by_plan;
  std::vector<std::size_t> first_job;  // per plan, its first job's index in JOBS
  std::size_t cases = 0;
  for (const VariantPlan& plan : plans) cases += cases_of(plan.scenario);
  const std::size_t parts = parts_per_case(cases, options, false);  // the pool's cases together fill the jobs
  for (std::size_t v = 0; v < plans.size(); ++v) {
    check_simulated_sizes(plans[v].scenario);
    const auto dir = work.path() / fmt::format("variant{:02}", v);
    std::filesystem::create_directories(dir);
    const PlatformFiles files = platform_files_of(plans[v], platforms[v], dir);
    first_job.push_back(jobs.size());
    PreparedJobs prepared = prepare_jobs(plans[v], files, platforms[v].layout, tools, dir, false, parts);
    // Each job names its sizes: the plans' sizes may differ.
    for (CaseJob job : prepared.jobs) {
      if (job.sizes.empty()) job.sizes = plans[v].scenario.sizes;
      jobs.push_back(std::move(job));
    }
    prepared_by_plan.push_back(std::move(prepared));
  }
  first_job.push_back(jobs.size());
  // Every plan's sizes, to say which part of them each job runs.
  std::vector<std::uint64_t> every_size;
  for (const VariantPlan& plan : plans) every_size.insert(every_size.end(), plan.scenario.sizes.begin(), plan.scenario.sizes.end());
  std::sort(every_size.begin(), every_size.end());
  every_size.erase(std::unique(every_size.begin(), every_size.end()), every_size.end());
  auto results = run_case_jobs(jobs, every_size, options.jobs, options.quiet, "simulated");
  if (!results) return std::nullopt;
  std::vector<std::vector<CaseResult>> by_plan;
  for (std::size_t v = 0; v < plans.size(); ++v) {
    std::vector<CaseResult> mine(std::make_move_iterator(results->begin() + static_cast<std::ptrdiff_t>(first_job[v])),
                                 std::make_move_iterator(results->begin() + static_cast<std::ptrdiff_t>(first_job[v + 1])));
    by_plan.push_back(joined_cases(std::move(mine), prepared_by_plan[v], plans[v].scenario.sizes));
    add_cost_models_by_part(by_plan.back(), plans[v]);
  }
  return by_plan;
}

std::optional<std::vector<std::vector<CaseResult>>> simulate_scenarios_together(const std::vector<Scenario>& scenarios,
                                                                                const Platform& platform,
                                                                                const SimulationOptions& options) {
  std::vector<VariantPlan> plans;
  std::size_t cases = 0;
  for (const Scenario& scenario : scenarios) {
    check_simulated_sizes(scenario);
    plans.push_back(plan_variant(scenario, platform, scenario.file.string()));
    cases += cases_of(scenario);
  }
  if (!options.quiet)
    fmt::print(stderr, "ringsim: simulating {} scenarios — {} {}, {} at a time\n", scenarios.size(), cases,
               plural(cases, "case", "cases"), options.jobs);
  return simulate_variants_together(plans, std::vector<Platform>(plans.size(), platform), options);
}

std::optional<std::vector<CaseResult>> simulate_scenario(const Scenario& scenario, const Platform& platform,
                                                         const SimulationOptions& options,
                                                         const std::optional<std::string>& timeline_file) {
  return simulate_variant(plan_variant(scenario, platform, scenario.file.string()), platform, options, timeline_file);
}

}  // namespace ringsim
