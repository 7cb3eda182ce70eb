// `ringsim measure`: the same rank program under Open MPI, on an emulated cluster of network
// namespaces on this machine or on the user's hosts, writing results with "kind": "measured".
#include "../analysis/optimized_order.h"
#include "../common/input_error.h"
#include "../engine/case_jobs.h"
#include "../engine/emulated_cluster.h"
#include "../engine/hostfile.h"
#include "../engine/machine_facts.h"
#include "../engine/mpi_case.h"
#include "../engine/program_paths.h"
#include "../engine/work_directory.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <unistd.h>

namespace ringsim {
namespace {

constexpr const char* kMeasureUsage = R"(usage: ringsim measure SCENARIO.json (--emulated | --hostfile FILE) [--json FILE] [--out DIR]
                       [--beyond-emulation-limit] [--rank-cpu FRACTION] [--quiet] [-- MPIRUN_ARGS...]

Runs every placement x algorithm of the scenario with the Open MPI build of the rank program
(ringsim-rank-mpi) and prints the same tables as `ringsim run`; --json writes the results with
"kind": "measured" and a "source" block (hosts, MPI version, commands, date, machine facts).
Cases run one after the other, never at once.

  --emulated         on this machine: one network namespace per topology node, a bridge as the rack
                     switch, each NIC shaped with tc to the topology's bandwidth in both directions
                     (split duplex); latency too where the kernel has netem. Needs root, ip, tc, unshare.
                     Everything is torn down afterwards, also on Ctrl-C. The topology must be compact
                     JSON with NICs of at most 400 Mbit/s (what 2 cores emulate faithfully; see README).
  --beyond-emulation-limit
                     accept faster NICs anyway (for experiments where the CPU is meant to be the limit)
  --rank-cpu FRACTION
                     cap each rank at FRACTION of one core in its own cgroup (emulated only), to make
                     the per-process network path the bottleneck instead of the NIC
  --hostfile FILE    on your cluster: topology node i runs on the i-th host of FILE; the rank program
                     must exist at the same path on every host. Arguments after -- go to mpirun.
  --json FILE        write the results JSON (atomically)
  --out DIR          keep hostfiles, mpirun logs and rank reports in DIR
  --quiet            no progress lines
)";

std::string joined(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) {
    const bool plain = !arg.empty() && arg.find_first_of(" \t'\"$\\;&|<>()*?") == std::string::npos;
    text += (text.empty() ? "" : " ") + (plain ? arg : "'" + arg + "'");
  }
  return text;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::filesystem::path require_program(const std::string& program, const std::string& how_to_get_it) {
  auto found = find_on_path(program);
  if (!found) throw InputError(fmt::format("{} not found on PATH: {}", program, how_to_get_it));
  return *found;
}

std::filesystem::path find_rank_program() {
  const char* override_path = std::getenv("RINGSIM_RANK_MPI");
  std::filesystem::path program = override_path != nullptr ? override_path : program_directory() / "ringsim-rank-mpi";
  if (!std::filesystem::is_regular_file(program))
    throw InputError(fmt::format("{} not found: install libopenmpi-dev and rebuild (tools/build.sh), or set RINGSIM_RANK_MPI",
                                 program.string()));
  return program;
}

std::size_t nodes_used(const Scenario& scenario) {
  std::size_t nodes = 0;
  for (const auto& placement : scenario.placements) nodes = std::max(nodes, placement.ranks_per_node.size());
  return nodes;
}

// The topology nodes the emulation needs, checked against what this machine can emulate.
std::vector<NodeSpec> emulated_nodes(const Scenario& scenario, const Platform& platform, bool beyond_limit) {
  if (!platform.topology)
    throw InputError(fmt::format("{}: --emulated needs a compact topology (its NIC rates are what tc shapes); "
                                 "SimGrid XML works with --hostfile",
                                 scenario.topology.string()));
  std::vector<NodeSpec> all;
  for (const auto& rack : platform.topology->racks) all.insert(all.end(), rack.nodes.begin(), rack.nodes.end());
  all.resize(nodes_used(scenario));
  for (const NodeSpec& node : all)
    if (node.nic.bandwidth_Bps > kEmulationLimitBps && !beyond_limit)
      throw InputError(fmt::format(
          "{}: node {} has a {:g} Mbit/s NIC, above the {:g} Mbit/s this machine emulates faithfully "
          "(README, \"Emulated cluster\"); describe slower NICs or pass --beyond-emulation-limit",
          scenario.topology.string(), node.name, node.nic.bandwidth_Bps * 8 / 1e6, kEmulationLimitBps * 8 / 1e6));
  return all;
}

}  // namespace

int measure_command(int argc, char** argv) {
  // Everything after "--" belongs to mpirun.
  int own_argc = argc;
  std::vector<std::string> mpirun_args;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      own_argc = i;
      mpirun_args.assign(argv + i + 1, argv + argc);
      break;
    }
  const ParsedArguments args = parse_arguments(own_argc, argv, 1, "measure", {"--json", "--out", "--hostfile", "--rank-cpu"},
                                               {"--emulated", "--beyond-emulation-limit", "--quiet"});
  if (args.has("--help")) {
    std::fputs(kMeasureUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim measure: expected exactly one SCENARIO.json");
  const bool emulated = args.has("--emulated");
  if (emulated == args.value("--hostfile").has_value())
    throw UsageError("ringsim measure: give either --emulated or --hostfile FILE");
  if (emulated && !mpirun_args.empty())
    throw UsageError("ringsim measure: arguments after -- are for --hostfile runs; the emulated cluster sets its own");
  const bool quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  double rank_cpu = 0;
  if (auto text = args.value("--rank-cpu")) {
    if (!emulated) throw UsageError("ringsim measure: --rank-cpu works on the emulated cluster only");
    rank_cpu = number_option("--rank-cpu", *text, 0.01, 64, "0.25");  // a share of one core
  }

  const Scenario as_written = load_scenario(args.positional[0]);
  const Platform platform = load_platform(as_written.topology);
  check_placements_fit(as_written, platform.layout);
  // An "optimized" order is searched on the scenario's topology, as the simulation does.
  const Scenario scenario = with_optimized_orders(as_written, platform);

  // The user's files first, then what this machine must provide.
  MpiLaunch launch;
  if (!emulated) {
    const auto hosts = read_hostfile(*args.value("--hostfile"));
    if (hosts.size() < nodes_used(scenario))
      throw InputError(fmt::format("{}: {} hosts, but the placements use {} nodes of the topology",
                                   *args.value("--hostfile"), hosts.size(), nodes_used(scenario)));
    launch.node_hosts.assign(hosts.begin(), hosts.begin() + static_cast<long>(nodes_used(scenario)));
  }
  launch.mpirun = require_program("mpirun", "apt-get install openmpi-bin libopenmpi-dev (or run tools/bootstrap.sh)");
  launch.rank_program = find_rank_program();
  launch.extra_mpirun_args = mpirun_args;
  std::vector<NodeSpec> nodes;
  if (emulated) {
    if (::geteuid() != 0)
      throw InputError("ringsim measure --emulated: needs root (it creates network namespaces and tc shaping); "
                       "run it as root or with sudo");
    require_program("ip", "apt-get install iproute2");
    require_program("tc", "apt-get install iproute2");
    require_program("unshare", "apt-get install util-linux");
    nodes = emulated_nodes(scenario, platform, args.has("--beyond-emulation-limit"));
    for (const NodeSpec& node : nodes) launch.node_hosts.push_back(node.name);
  }

  WorkDirectory work(args.value("--out"));
  std::unique_ptr<EmulatedCluster> cluster;
  if (emulated) {
    if (!quiet) fmt::print(stderr, "ringsim: creating the emulated cluster ({} nodes)\n", nodes.size());
    cluster = std::make_unique<EmulatedCluster>(nodes);
    launch.cluster = cluster.get();
    launch.rsh_agent = cluster->write_rsh_agent(work.path());
    launch.rank_cpu = rank_cpu;
  }

  std::vector<CaseJob> jobs;
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& placement : scenario.placements)
    for (const auto& algorithm : scenario.algorithms) {
      const SimulationCase spec{placement, algorithm};
      const PreparedMpiCase prepared =
          prepare_mpi_case(scenario, launch, spec, work.path() / case_directory_name(jobs.size(), spec));
      jobs.push_back({spec, prepared.command, prepared.report, prepared.progress});
      commands.push_back(joined(prepared.command.argv));
    }
  if (!quiet)
    fmt::print(stderr, "ringsim: measuring {} — {} {}, {} {}, one at a time\n", scenario.name, jobs.size(),
               plural(jobs.size(), "case", "cases"), scenario.sizes.size(), plural(scenario.sizes.size(), "size", "sizes"));
  const auto results = run_case_jobs(jobs, scenario.sizes, 1, quiet, "measured");
  if (!results) return 1;

  nlohmann::json source = {{"mode", emulated ? "emulated" : "hostfile"},
                           {"hosts", launch.node_hosts},
                           {"mpi", first_line(capture_output({launch.mpirun.string(), "--version"}).output)},
                           {"command", "ringsim " + joined(std::vector<std::string>(argv, argv + argc))},
                           {"mpirun_commands", commands},
                           {"date", utc_timestamp()},
                           {"machine", local_machine_facts()}};
  if (cluster) {
    nlohmann::json rates = nlohmann::json::object();
    for (const NodeSpec& node : nodes) rates[node.name] = node.nic.bandwidth_Bps * 8;
    source["emulation"] = {{"nic_rates_bps", rates},
                           {"latency", cluster->latency()},
                           {"limit_bps", kEmulationLimitBps * 8},
                           {"beyond_limit", args.has("--beyond-emulation-limit")},
                           {"rank_cpu_share", rank_cpu > 0 ? nlohmann::json(rank_cpu) : nlohmann::json()}};
  }
  nlohmann::json document = results_json("measured", scenario.name, *results);
  document["source"] = source;
  return print_and_save_results(scenario, platform.layout,
                                fmt::format("Measured {} on {} ({})", scenario.name,
                                            emulated ? "the emulated cluster" : "the hosts of " + *args.value("--hostfile"),
                                            source["mpi"].get<std::string>()),
                                *results, document, args.value("--json"));
}

}  // namespace ringsim
