// `ringsim measure`: the same rank program under Open MPI, on an emulated cluster of network
// namespaces on this machine or on the user's hosts, writing results with "kind": "measured".
#include "../common/input_error.h"
#include "../measure/scenario_measurement.h"
#include "../results/results_document.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
                     JSON with NICs of at most 400 Mbit/s (what 2 cores emulate faithfully; see docs/measure-and-validate.md).
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

// Everything after "--" belongs to mpirun: OWN_ARGC is where ringsim's own arguments end.
std::vector<std::string> mpirun_arguments(int argc, char** argv, int& own_argc) {
  own_argc = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      own_argc = i;
      return {argv + i + 1, argv + argc};
    }
  return {};
}

MeasureOptions measure_options(const ParsedArguments& args, std::vector<std::string> mpirun_args, int argc, char** argv) {
  MeasureOptions options;
  options.emulated = args.has("--emulated");
  options.hostfile = args.value("--hostfile");
  if (options.emulated == options.hostfile.has_value())
    throw UsageError("ringsim measure: give either --emulated or --hostfile FILE");
  if (options.emulated && !mpirun_args.empty())
    throw UsageError("ringsim measure: arguments after -- are for --hostfile runs; the emulated cluster sets its own");
  options.mpirun_args = std::move(mpirun_args);
  options.quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  if (auto text = args.value("--rank-cpu")) {
    if (!options.emulated) throw UsageError("ringsim measure: --rank-cpu works on the emulated cluster only");
    options.rank_cpu = number_option("--rank-cpu", *text, 0.01, 64, "0.25");  // a share of one core
  }
  options.beyond_emulation_limit = args.has("--beyond-emulation-limit");
  options.out_dir = args.value("--out");
  options.command_line = "ringsim " + shell_command_text(std::vector<std::string>(argv, argv + argc));
  return options;
}

// The same tables as `run`, and the results JSON with "kind": "measured" and its source.
int render_measurement(const ScenarioMeasurement& measured, const Platform& platform, const MeasureOptions& options,
                       const std::optional<std::string>& json) {
  if (!measured.results) return 1;
  const std::string where = options.emulated ? "the emulated cluster" : "the hosts of " + *options.hostfile;
  const int status = print_results(measured.scenario, platform.layout,
                                   fmt::format("Measured {} on {} ({})", measured.scenario.name, where,
                                               measured.source.at("mpi").get<std::string>()),
                                   *measured.results);
  if (json) {
    ResultsDocument document;
    document.kind = "measured";
    document.scenario = measured.scenario.name;
    document.source = measured.source;
    document.rows = result_rows(*measured.results);
    document.save(*json);
  }
  return status;
}

}  // namespace

int measure_command(int argc, char** argv) {
  int own_argc = argc;
  std::vector<std::string> mpirun_args = mpirun_arguments(argc, argv, own_argc);
  const ParsedArguments args = parse_arguments(own_argc, argv, 1, "measure", {"--json", "--out", "--hostfile", "--rank-cpu"},
                                               {"--emulated", "--beyond-emulation-limit", "--quiet"});
  if (args.has("--help")) {
    std::fputs(kMeasureUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim measure: expected exactly one SCENARIO.json");
  const MeasureOptions options = measure_options(args, std::move(mpirun_args), argc, argv);

  const Scenario scenario = load_scenario(args.positional[0]);
  const Platform platform = load_platform(scenario.topology);
  return render_measurement(measure_scenario(scenario, platform, options), platform, options, args.value("--json"));
}

}  // namespace ringsim
