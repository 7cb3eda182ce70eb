#include "scenario_measurement.h"

#include "../analysis/optimized_order.h"
#include "../cases/case_jobs.h"
#include "../cases/work_directory.h"
#include "emulated_cluster.h"
#include "machine_facts.h"

#include <fmt/format.h>
#include <memory>

namespace ringsim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// One job per placement x algorithm x collective, in that order, each ring laid on the topology's
// LAYOUT; COMMANDS gets each job's mpirun line.
std::vector<CaseJob> measurement_jobs(const Scenario& scenario, const ClusterLayout& layout, const MpiLaunch& launch,
                                      const std::filesystem::path& work, nlohmann::json& commands) {
  std::vector<CaseJob> jobs;
  for (const auto& placement : scenario.placements)
    for (const auto& algorithm : scenario.algorithms)
      for (const Collective collective : scenario.collectives) {
        const SimulationCase spec = planned_case(placement, algorithm, "smpi", layout, collective);
        const PreparedMpiCase prepared = prepare_mpi_case(scenario, launch, spec, work / case_directory_name(jobs.size(), spec));
        jobs.push_back({spec, prepared.command, prepared.report, prepared.progress, {}});
        commands.push_back(shell_command_text(prepared.command.argv));
      }
  return jobs;
}

// Where and how the cases ran: hosts, MPI version, commands, date, machine facts, the emulation.
nlohmann::json measurement_source(const CheckedLaunch& checked, const EmulatedCluster* cluster,
                                  const nlohmann::json& commands, const MeasureOptions& options) {
  const MpiLaunch& launch = checked.launch;
  nlohmann::json source = {{"mode", options.emulated ? "emulated" : "hostfile"},
                           {"hosts", launch.node_hosts},
                           {"mpi", first_line(capture_output({launch.mpirun.string(), "--version"}).output)},
                           {"command", options.command_line},
                           {"mpirun_commands", commands},
                           {"date", utc_timestamp()},
                           {"machine", local_machine_facts()}};
  if (cluster) {
    nlohmann::json rates = nlohmann::json::object();
    for (const NodeSpec& node : checked.emulated_nodes) rates[node.name] = node.nic.bandwidth_Bps * 8;
    source["emulation"] = {{"nic_rates_bps", rates},
                           {"latency", cluster->latency()},
                           {"limit_bps", kEmulationLimitBps * 8},
                           {"beyond_limit", options.beyond_emulation_limit},
                           {"rank_cpu_share", options.rank_cpu > 0 ? nlohmann::json(options.rank_cpu) : nlohmann::json()}};
  }
  return source;
}

}  // namespace

ScenarioMeasurement measure_scenario(const Scenario& as_written, const Platform& platform, const MeasureOptions& options) {
  check_placements_fit(as_written, platform.layout);
  // An "optimized" order is searched on the scenario's topology, as the simulation does.
  ScenarioMeasurement measurement{with_optimized_orders(as_written, platform), std::nullopt, nullptr};
  const Scenario& scenario = measurement.scenario;
  CheckedLaunch checked = check_measure_launch(scenario, platform, options);

  WorkDirectory work(options.out_dir);
  std::unique_ptr<EmulatedCluster> cluster;
  if (options.emulated) {
    if (!options.quiet) fmt::print(stderr, "ringsim: creating the emulated cluster ({} nodes)\n", checked.emulated_nodes.size());
    cluster = std::make_unique<EmulatedCluster>(checked.emulated_nodes);
    checked.launch.cluster = cluster.get();
    checked.launch.rsh_agent = cluster->write_rsh_agent(work.path());
    checked.launch.rank_cpu = options.rank_cpu;
  }
  nlohmann::json commands = nlohmann::json::array();
  const std::vector<CaseJob> jobs = measurement_jobs(scenario, platform.layout, checked.launch, work.path(), commands);
  if (!options.quiet)
    fmt::print(stderr, "ringsim: measuring {} — {} {}, {} {}, one at a time\n", scenario.name, jobs.size(),
               plural(jobs.size(), "case", "cases"), scenario.sizes.size(), plural(scenario.sizes.size(), "size", "sizes"));
  measurement.results = run_case_jobs(jobs, scenario.sizes, 1, options.quiet, "measured");
  if (measurement.results) measurement.source = measurement_source(checked, cluster.get(), commands, options);
  return measurement;
}

}  // namespace ringsim
