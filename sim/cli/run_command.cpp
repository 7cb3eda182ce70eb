// `ringsim run`: scenario + platform + placements -> one smpirun per case, run in parallel,
// then tables, a comparison, and the results JSON.
#include "../analysis/scenario_findings.h"
#include "../model/algorithm_registry.h"
#include "../rank/algorithm_catalog.h"
#include "../results/results_document.h"
#include "../results/results_output.h"
#include "../simulate/scenario_run.h"
#include "../common/input_error.h"
#include "command_line.h"
#include "scenario_to_run.h"
#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ringsim {
namespace {

constexpr const char* kRunUsage = R"(usage: ringsim run SCENARIO.json [--json FILE] [--out DIR] [--timeline FILE] [--jobs N] [--model MODEL.json]

Simulates every placement x algorithm of the scenario with SimGrid's SMPI (one smpirun per case, each
running the real rank program over every size) and prints, per case, a table like nccl-tests':
  size, count, type, time(us) = median over iterations of the slowest rank, algbw = size/time,
  busbw = algbw * 2(n-1)/n (other collectives: nccl-tests' factor), #wrong = elements that differ from
  the expected result (N/A: not checked,
  because size x ranks exceeds 128 MiB and the buffers are SMPI-shared to save memory).
Then a comparison of every case against the first, size by size. A scenario with "variants" (models
to compare, e.g. NICs of 1 and 10 Gbit/s) runs every case once per variant and adds a what-if table.
Last, findings in plain words at the largest size: how much slower each case is than the first, and
the link or rank that limits it (ringsim analyze's embedding of the ring, under each variant's model).

options:
  --json FILE        also write the results JSON (docs/results-format.md); written atomically
  --out DIR          keep each case's platform, hostfile, smpirun log, report and per-step events in DIR
  --timeline FILE    write every step of every rank (last iteration, simulated clock) as a Chrome trace
                     (open in ui.perfetto.dev or chrome://tracing): one process per case and size
  --jobs N           simulations run at once (default: the number of cores)
  --model FILE       a JSON object of model keys merged over the scenario's "model"
  --quiet            no progress lines on standard error

algorithms:
)";

// The topology as the results file at JSON reaches it: relative to its folder, so that both can move together.
std::string topology_from(const std::filesystem::path& json, const std::filesystem::path& topology) {
  const auto folder = std::filesystem::absolute(json).parent_path();
  const auto relative = std::filesystem::weakly_canonical(std::filesystem::absolute(topology)).lexically_relative(
      std::filesystem::weakly_canonical(folder));
  return relative.empty() ? std::filesystem::absolute(topology).string() : relative.generic_string();
}

// The results JSON: one variant's rows with its model, or every variant's rows tagged with its name;
// the scenario's question and topology, so that `ringsim report` can answer the one on the other.
ResultsDocument run_document(const Scenario& scenario, const Platform& platform, const RunResults& run,
                             const std::filesystem::path& json) {
  ResultsDocument document;
  document.kind = "simulated";
  document.scenario = scenario.name;
  document.question = scenario.question;
  document.topology = topology_from(json, scenario.topology);
  for (const VariantRun& variant : run.runs) {
    const nlohmann::json nccl_model = variant.nccl_model ? variant.nccl_model->to_json() : nlohmann::json();
    if (variant.name.empty()) document.model = variant.scenario.model.to_json(), document.nccl_model = nccl_model;
    else document.variants.push_back({variant.name, variant.scenario.model.to_json(), nccl_model});
    for (ResultRow& row : result_rows(variant.results, variant.name)) document.rows.push_back(std::move(row));
  }
  document.findings = run.findings;
  if (platform.topology) document.assumed = platform.topology->assumed;
  return document;
}

// A header line naming NCCL's software costs where VARIANT's NCCL cases spend the learned defaults, a
// value no file stated; empty otherwise.
std::string nccl_software_line(const VariantRun& variant) {
  const ModelSettings& model = variant.nccl_model ? *variant.nccl_model : variant.scenario.model;
  const auto& algorithms = variant.scenario.algorithms;
  const bool runs_nccl = std::any_of(algorithms.begin(), algorithms.end(), [](const std::string& name) { return is_nccl_algorithm(name); });
  if (!runs_nccl || model.network != "NCCL" || model.effective_nccl().software != nccl_learned_software_costs()) return "";
  return fmt::format("\n# NCCL's software costs, learned across clusters (docs/software-costs.md): {}",
                     nccl_software_costs_text(nccl_learned_software_costs()));
}

// Tables per variant, the what-if table, the findings, and the JSON file: what `run` prints and saves.
int render_run(const Scenario& scenario, const Platform& platform, const RunResults& run,
               const std::optional<std::string>& json) {
  int status = 0;
  for (const VariantRun& variant : run.runs) {
    std::string header = fmt::format("Scenario {} on {}; model {}", variant.scenario.name, scenario.topology.string(),
                                     variant.scenario.model.to_json().dump());
    if (variant.nccl_model)
      header += fmt::format("\n# NCCL's algorithms ran under the model made for NCCL: {}", variant.nccl_model->to_json().dump());
    header += nccl_software_line(variant);
    if (platform.topology && !platform.topology->assumed.empty())
      header += fmt::format("\n# Assumed (not stated by the topology): {}", fmt::join(platform.topology->assumed, "; "));
    status = std::max(status, print_results(variant.scenario, platform.layout, header, variant.results));
  }
  if (!run.complete) return 1;
  const std::string what_if = variant_table(run.runs);
  if (!what_if.empty()) fmt::print("\n{}", what_if);
  if (!run.findings.empty()) {
    fmt::print("\n# Findings\n");
    for (const auto& finding : run.findings) fmt::print("- {}\n", finding);
  }
  if (json) run_document(scenario, platform, run, *json).save(*json);
  return status;
}

// The scenario at FILE, or one line saying how to run it when it is a validation scenario (no
// placements) or a sweep file.
Scenario load_runnable_scenario(const std::filesystem::path& file) {
  Scenario scenario;
  try {
    scenario = load_scenario(file, PlacementsKey::optional);
  } catch (const InputError&) {
    if (auto line = sweep_file_line(file)) throw InputError(*line);
    throw;
  }
  if (scenario.placements.empty()) throw InputError(validation_scenario_line(scenario));
  return scenario;
}

}  // namespace

int run_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "run", {"--json", "--out", "--timeline", "--jobs", "--model"}, {"--quiet"});
  if (args.has("--help")) {
    std::fputs(kRunUsage, stdout);
    for (const auto& info : kAlgorithmCatalog) fmt::print("  {:<22} {}\n", info.name, info.summary);
    fmt::print("\nother collectives (scenario key \"collectives\", docs/collectives.md):\n");
    for (const auto& info : kCollectiveAlgorithms)
      fmt::print("  {:<15} {:<8} {}\n", collective_name(info.collective), info.name, info.summary);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim run: expected exactly one SCENARIO.json");
  const RunOptions options{jobs_option(args), args.has("--quiet"), args.value("--out"), args.value("--timeline")};
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  if (options.timeline) check_output_file("--timeline", *options.timeline);

  // Everything the user wrote is read here, and checked by run_scenario before any simulation starts.
  Scenario scenario = load_runnable_scenario(args.positional[0]);
  if (auto model = args.value("--model")) {
    scenario.model = load_model_file(*model, scenario.model);
    for (auto& variant : scenario.variants) variant.model = load_model_file(*model, variant.model);
  }
  const Platform platform = load_platform(scenario.topology);
  return render_run(scenario, platform, run_scenario(scenario, platform, options), args.value("--json"));
}

}  // namespace ringsim
