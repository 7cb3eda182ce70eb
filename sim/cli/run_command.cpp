// `ringsim run`: scenario + platform + placements -> one smpirun per case, run in parallel,
// then tables, a comparison, and the results JSON.
#include "../analysis/scenario_findings.h"
#include "../common/atomic_file.h"
#include "../engine/simulation.h"
#include "../rank/algorithm_catalog.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <cctype>
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
Then a comparison of every case against the first, size by size. A scenario with "variants" (models
to compare, e.g. NICs of 1 and 10 Gbit/s) runs every case once per variant and adds a what-if table.
Last, findings in plain words at the largest size: how much slower each case is than the first, and
the link or rank that limits it (ringsim analyze's embedding of the ring, under each variant's model).

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

// With variants, per-variant outputs (--out DIR, --timeline FILE) get the variant's index and name.
std::optional<std::string> variant_output(const std::optional<std::string>& path, const std::string& variant, std::size_t index) {
  if (!path || variant.empty()) return path;
  std::string tag;
  for (char c : variant) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  const std::filesystem::path p(*path);
  return (p.parent_path() / fmt::format("{}.{}-{}{}", p.stem().string(), index + 1, tag, p.extension().string())).string();
}

}  // namespace

int run_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "run", {"--json", "--out", "--timeline", "--jobs", "--model"}, {"--quiet"});
  if (args.has("--help")) {
    std::fputs(kRunUsage, stdout);
    for (const auto& info : kAlgorithmCatalog) fmt::print("  {:<22} {}\n", info.name, info.summary);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim run: expected exactly one SCENARIO.json");
  const int jobs = jobs_option(args);
  const bool quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  if (auto timeline = args.value("--timeline")) check_output_file("--timeline", *timeline);

  // Everything the user wrote is read and checked before any simulation starts.
  Scenario scenario = load_scenario(args.positional[0]);
  if (auto model = args.value("--model")) {
    scenario.model = load_model_file(*model, scenario.model);
    for (auto& variant : scenario.variants) variant.model = load_model_file(*model, variant.model);
  }
  const Platform platform = load_platform(scenario.topology);
  check_placements_fit(scenario, platform.layout);
  // A scenario with variants runs its cases once per variant (what-if models), then compares them.
  const std::vector<ScenarioVariant> variants =
      scenario.variants.empty() ? std::vector<ScenarioVariant>{{"", scenario.model}} : scenario.variants;
  std::vector<VariantRun> runs;
  nlohmann::json document;
  int status = 0;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const Scenario one = variants[v].name.empty() ? scenario : scenario_for_variant(scenario, variants[v]);
    const auto timeline = variant_output(args.value("--timeline"), variants[v].name, v);
    const auto out_dir = variant_output(args.value("--out"), variants[v].name, v);
    const auto results = simulate_scenario(one, platform, {jobs, quiet, out_dir}, timeline);
    if (!results) return 1;
    runs.push_back({variants[v].name, one.model, *results});

    nlohmann::json part = results_json("simulated", scenario.name, *results);
    if (variants[v].name.empty()) {
      document = part;
      document["model"] = one.model.to_json();
    } else {
      if (document.is_null()) document = {{"kind", "simulated"}, {"scenario", scenario.name}, {"results", nlohmann::json::array()}};
      document["variants"].push_back({{"name", variants[v].name}, {"model", one.model.to_json()}});
      for (auto& row : part["results"]) {
        row["variant"] = variants[v].name;
        document["results"].push_back(row);
      }
    }
    status = std::max(status, print_and_save_results(one, platform.layout,
                                                     fmt::format("Scenario {} on {}; model {}", one.name, scenario.topology.string(),
                                                                 one.model.to_json().dump()),
                                                     *results, document, std::nullopt));
  }

  const std::string what_if = variant_table(runs);
  if (!what_if.empty()) fmt::print("\n{}", what_if);
  const auto findings = scenario_findings(scenario, platform, runs);
  if (!findings.empty()) {
    fmt::print("\n# Findings\n");
    for (const auto& finding : findings) fmt::print("- {}\n", finding);
    document["findings"] = findings;
  }
  if (auto json = args.value("--json")) write_file_atomically(*json, document.dump(2) + "\n");
  return status;
}

}  // namespace ringsim
