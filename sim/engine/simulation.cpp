#include "simulation.h"

#include "../analysis/case_costs.h"
#include "../analysis/optimized_order.h"
#include "../analysis/platform_routes.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../platform/plan_file.h"
#include "../results/chrome_timeline.h"
#include "case_jobs.h"
#include "s4u_case.h"
#include "smpi_case.h"
#include "work_directory.h"

#include <fmt/format.h>

namespace ringsim {

std::optional<std::vector<CaseResult>> simulate_scenario(const Scenario& scenario_as_written, const Platform& platform,
                                                         const SimulationOptions& options,
                                                         const std::optional<std::string>& timeline_file) {
  check_model_fits(platform, scenario_as_written.model, scenario_as_written.file.string());
  const Scenario scenario = with_optimized_orders(scenario_as_written, platform);
  const SmpiTools tools = find_smpi_tools();
  WorkDirectory work(options.keep_dir);
  // A compact topology's platform is planned here, under the scenario's model (which may scale its
  // links or add process stacks), and built by the platform library (platform_library.h): its size
  // grows with the nodes. SimGrid XML is used as written.
  std::filesystem::path platform_file = platform.source;
  if (platform.topology) {
    platform_file = work.path() / "platform-plan.json";
    write_file_atomically(platform_file, plan_file_json(scenario.model.shape(*platform.topology), scenario.model.platform_model()));
  }

  // Events are recorded for --out, and for --timeline even without it (then in the temporary directory).
  const bool record_events = options.keep_dir.has_value() || timeline_file.has_value();
  std::vector<CaseJob> jobs;
  std::vector<std::filesystem::path> events_files;
  for (const auto& placement : scenario.placements)
    for (const auto& algorithm : scenario.algorithms) {
      const SimulationCase spec{placement, algorithm, scenario.model.engine_for(placement.total_ranks(), algorithm)};
      const auto case_dir = work.path() / case_directory_name(jobs.size(), spec);
      const PreparedCase prepared =
          spec.engine == "s4u"
              ? prepare_s4u_case(scenario, platform_file, platform.layout, spec, case_dir, find_s4u_program(), record_events)
              : prepare_smpi_case(scenario, platform_file, platform.layout, spec, case_dir, tools, record_events);
      jobs.push_back({spec, prepared.command, prepared.report, prepared.progress});
      events_files.push_back(prepared.events);
    }
  if (!options.quiet)
    fmt::print(stderr, "ringsim: simulating {} — {} {}, {} {}, {} at a time\n", scenario.name, jobs.size(),
               plural(jobs.size(), "case", "cases"), scenario.sizes.size(), plural(scenario.sizes.size(), "size", "sizes"),
               options.jobs);
  auto results = run_case_jobs(jobs, scenario.sizes, options.jobs, options.quiet, "simulated");
  if (results && platform.topology)
    add_cost_models(*results, scenario.model.shape(*platform.topology), platform.layout);
  if (results && timeline_file) {
    std::vector<TimelineCase> timeline;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const PlacementSpec& placement = jobs[i].spec.placement;
      timeline.push_back({placement.ranks_text(), std::string(order_name(placement.order)), jobs[i].spec.algorithm,
                          (*results)[i].ranks, read_events_file(events_files[i])});
    }
    write_file_atomically(*timeline_file, chrome_timeline(scenario.name, timeline).dump() + "\n");
  }
  return results;
}

}  // namespace ringsim
