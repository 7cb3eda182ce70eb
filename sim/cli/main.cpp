#include "../cases/process_pool.h"
#include "../common/input_error.h"
#include "../common/interrupt_cleanup.h"
#include "command_line.h"
#include "commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <string_view>
#include <utility>

namespace {

constexpr const char* kUsage = R"(ringsim — simulate ring-allreduce on modeled clusters with SimGrid's SMPI

usage: ringsim COMMAND [ARGS] [--help]

commands:
  run SCENARIO.json        simulate every placement x algorithm of a scenario and print nccl-tests-style tables
  measure SCENARIO.json    run the same cases with Open MPI on an emulated cluster (--emulated) or your hosts
  validate SCENARIO.json   compare simulated with measured times (ringsim, nccl-tests, OSU, IMB, Horovod traces)
  calibrate SCENARIO.json  fit the model's latency and bandwidth to a measured trace; writes a model file
  analyze TOPOLOGY.json    embed a placement's ring in the topology: load per link, bottleneck, closed-form time
  platform TOPOLOGY.json   write the SimGrid platform XML of a compact topology
  report RESULTS.json      one self-contained HTML page of plots from a results JSON (-o report.html)
  sweep ACTION ...          plan, run (here or as a Slurm job array), status, merge: many cases from one sweep file
  import PRINT...          a topology from what a cluster prints: NCCL's XML and log, nvidia-smi topo -m, ibstat, topology.conf

Exit status: 0 success, 1 a check failed (wrong results, a failed simulation) or a write failed,
2 bad input or usage, 130 / 143 interrupted by SIGINT / SIGTERM (nothing left behind: docs/commands.md).
See docs/ for the scenario, topology and results formats; README.md indexes it.
)";

using CommandFn = int (*)(int, char**);

// The subcommands, each given its own argv (argv[0] = its name).
constexpr std::pair<std::string_view, CommandFn> kCommands[] = {
    {"run", ringsim::run_command},           {"measure", ringsim::measure_command},
    {"validate", ringsim::validate_command}, {"calibrate", ringsim::calibrate_command},
    {"analyze", ringsim::analyze_command},   {"platform", ringsim::platform_command},
    {"report", ringsim::report_command},     {"sweep", ringsim::sweep_command},
    {"import", ringsim::import_command},
};

CommandFn find_command(std::string_view name) {
  for (const auto& [known, fn] : kCommands)
    if (known == name) return fn;
  return nullptr;
}

// Standard output is buffered: a full disk shows only when it is flushed.
int flush_standard_output(int status) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  fmt::print(stderr, "ringsim: cannot write the standard output ({})\n", std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ringsim;
  install_interrupt_cleanup();
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string_view command = argv[1];
  try {
    if (command == "--help" || command == "-h" || command == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (command == "--version") {
      std::puts("ringsim 0.1.0");
      return 0;
    }
    if (CommandFn fn = find_command(command)) return flush_standard_output(fn(argc - 1, argv + 1));
    throw UsageError(fmt::format("ringsim: unknown command \"{}\"", command));
  } catch (const UsageError& e) {
    fmt::print(stderr, "{} (see ringsim {}--help)\n", e.what(), find_command(command) ? fmt::format("{} ", command) : "");
    return 2;
  } catch (const Interrupted& e) {
    fmt::print(stderr, "ringsim: {}\n", e.what());
    return e.signal_number() != 0 ? interrupted_exit_status(e.signal_number()) : 1;
  } catch (const InputError& e) {
    fmt::print(stderr, "ringsim: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ringsim: {}\n", e.what());
    return 1;
  }
}
