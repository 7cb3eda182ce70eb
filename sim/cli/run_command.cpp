// `ringsim run`: scenario + platform + placements -> one smpirun per case, run in parallel,
// then tables, a comparison, and the results JSON.
#include "../launcher/simulation.h"
#include "../rank/algorithm_catalog.h"
#include "command_line.h"
#include "commands.h"
#include "results_output.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kRunUsage = R"(usage: ringsim run SCENARIO.json [--json FILE] [--out DIR] [--timeline FILE] [--jobs N] [--model MODEL.json]

Simulates every placement x algorithm of the scenario with SimGrid's SMPI (one smpirun per case, each
running the real rank program over every size) and prints, per case, a table like nccl-tests':
  size, count, type, time(us) = median over iterations of the slowest rank, algbw = size/time,
  busbw = algbw * 2(n-1)/n, #wrong = elements that differ from the expected sum (N/A: not checked,
  because size x ranks exceeds 128 MiB and the buffers are SMPI-shared to save memory).
Then a comparison of every case against the first, size by size.

options:
  --json FILE        also write the results JSON (README "Results"); written atomically
  --out DIR          keep each case's platform, hostfile, smpirun log, report and per-step events in DIR
  --timeline FILE    write every step of every rank (last iteration, simulated clock) as a Chrome trace
                     (open in ui.perfetto.dev or chrome://tracing): one process per case and size
  --jobs N           simulations run at once (default: the number of cores)
  --model FILE       a JSON object of model keys merged over the scenario's "model"
  --quiet            no progress lines on standard error

algorithms:
)";

}  // namespace

int run_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "run", {"--json", "--out", "--timeline", "--jobs", "--model"}, {"--quiet"});
  if (args.has("--help")) {
    std::fputs(kRunUsage, stdout);
    for (const auto& info : kAlgorithmCatalog) fmt::print("  {:<18} {}\n", info.name, info.summary);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim run: expected exactly one SCENARIO.json");
  const int jobs = jobs_option(args);
  const bool quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  if (auto timeline = args.value("--timeline")) check_output_file("--timeline", *timeline);

  // Everything the user wrote is read and checked before any simulation starts.
  Scenario scenario = load_scenario(args.positional[0]);
  if (auto model = args.value("--model")) scenario.model = load_model_file(*model, scenario.model);
  const Platform platform = load_platform(scenario.topology);
  check_placements_fit(scenario, platform.layout);
  const auto results = simulate_scenario(scenario, platform, {jobs, quiet, args.value("--out")}, args.value("--timeline"));
  if (!results) return 1;

  nlohmann::json document = results_json("simulated", scenario.name, *results);
  document["model"] = scenario.model.to_json();
  return print_and_save_results(
      scenario, platform.layout,
      fmt::format("Scenario {} on {}; model {}", scenario.name, scenario.topology.string(), scenario.model.to_json().dump()),
      *results, document, args.value("--json"));
}

}  // namespace ringsim
