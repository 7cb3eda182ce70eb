// `ringsim validate`: simulate the scenario at exactly the sizes (and placements) a measured trace
// holds, compare size by size, and judge the median |error| above --min-bytes against a tolerance.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../engine/simulation.h"
#include "../results/results_output.h"
#include "../validate/comparison.h"
#include "command_line.h"
#include "commands.h"
#include "trace_input.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kValidateUsage = R"(usage: ringsim validate SCENARIO.json --measured TRACE [--format F] [--tolerance 0.10]
                        [--min-bytes SIZE] [--select P/ORDER,...] [--ranks N] [--model MODEL.json]
                        [--json FILE] [--jobs N] [--quiet]

Simulates the scenario (its topology and model describe the measured cluster) at exactly the sizes the
trace holds, compares size by size — measured time, simulated time, relative error (simulated/measured
- 1), measured and simulated busbw — and summarises the errors: median |error|, geometric-mean error
(the bias) and the worst size, over all sizes and over those >= --min-bytes. Exit status 1 when the
median |error| above --min-bytes exceeds --tolerance.

Placements: ringsim traces carry theirs; other formats take the scenario's one placement.
  --format F         the trace's format (default: detected): ringsim, nccl-tests, osu, imb, horovod-timeline
  --tolerance X      allowed median |error| above --min-bytes (default 0.10)
  --min-bytes SIZE   sizes below are reported but not judged (default 0)
  --select LIST      ringsim traces: only these placements, e.g. 4-2-2/cyclic,4-3-1/cyclic
  --ranks N          IMB: the process count to compare (default: the scenario placement's rank count)
  --model FILE       model keys merged over the scenario's (e.g. from ringsim calibrate)
  --json FILE        write the comparison as JSON
)";

nlohmann::json summary_json(const ErrorSummary& summary) {
  return {{"count", summary.count},         {"median_abs_error", summary.median_abs_error},
          {"geomean_error", summary.geomean_error}, {"worst_error", summary.worst_error},
          {"worst", summary.worst}};
}

void print_summary(const char* label, const ErrorSummary& summary) {
  if (summary.count == 0) return fmt::print("# {}: no sizes\n", label);
  fmt::print("# {}: {} sizes, median |error| {:.1f}%, geometric-mean error {:+.1f}%, worst {:+.1f}% ({})\n", label,
             summary.count, summary.median_abs_error * 100, summary.geomean_error * 100, summary.worst_error * 100,
             summary.worst);
}

}  // namespace

int validate_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(
      argc, argv, 1, "validate",
      {"--measured", "--select", "--format", "--tolerance", "--min-bytes", "--ranks", "--model", "--json", "--jobs"}, {"--quiet"});
  if (args.has("--help")) {
    std::fputs(kValidateUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim validate: expected exactly one SCENARIO.json");
  const double tolerance =
      args.value("--tolerance") ? number_option("--tolerance", *args.value("--tolerance"), 0, 100, "0.10") : 0.10;
  const std::uint64_t min_bytes = args.value("--min-bytes") ? bytes_option("--min-bytes", *args.value("--min-bytes")) : 0;
  const int jobs = jobs_option(args);
  if (auto json = args.value("--json")) check_output_file("--json", *json);

  Scenario scenario = load_scenario(args.positional[0]);
  if (auto model = args.value("--model")) scenario.model = load_model_file(*model, scenario.model);
  const Platform platform = load_platform(scenario.topology);
  const TraceInput input = read_trace_input(args, scenario, "validate");
  const MeasuredTrace& trace = input.trace;
  const GroupedTrace& grouped = input.grouped;
  const std::string& trace_file = input.file;
  if (!args.has("--quiet")) {
    fmt::print(stderr, "ringsim: read {}\n", trace.summary());
    for (auto bytes : grouped.skipped) fmt::print(stderr, "ringsim: skipping {} B (not a whole float32 buffer)\n", bytes);
  }

  // Simulate the trace's placements at the trace's sizes, with the scenario's platform and model.
  Scenario simulated = scenario;
  simulated.placements.clear();
  for (const auto& measured : grouped.cases) simulated.placements.push_back(measured.placement);
  simulated.algorithms = {"ring"};
  simulated.sizes = grouped.sizes;
  check_placements_fit(simulated, platform.layout);
  const auto results = simulate_scenario(simulated, platform, {jobs, args.has("--quiet"), std::nullopt});
  if (!results) return 1;

  std::vector<ComparedSize> compared;
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t c = 0; c < grouped.cases.size(); ++c) {
    const auto& measured = grouped.cases[c];
    const CaseResult& result = (*results)[c];
    fmt::print("# {} ring, {} ranks: measured ({}) vs simulated\n", measured.placement.label(), result.ranks, trace.format);
    fmt::print("#{:>11} {:>13} {:>13} {:>8} {:>13} {:>13}\n", "size", "measured(us)", "simulated(us)", "error",
               "meas.busbw", "sim.busbw");
    for (const SizeResult& size : result.sizes) {
      auto it = measured.median_time_s.find(size.bytes);
      if (it == measured.median_time_s.end()) continue;
      ComparedSize row{measured.placement.ranks_text(), std::string(order_name(measured.placement.order)), result.ranks,
                       size.bytes, it->second, size.median_s()};
      fmt::print(" {:>11} {:>13.1f} {:>13.1f} {:>+7.1f}% {:>13.4f} {:>13.4f}{}\n", size.bytes, row.measured_s * 1e6,
                 row.simulated_s * 1e6, row.error() * 100, busbw_GBps(size.bytes, row.measured_s, row.ranks),
                 busbw_GBps(size.bytes, row.simulated_s, row.ranks), size.bytes < min_bytes ? "  (below --min-bytes)" : "");
      rows.push_back({{"placement", row.placement}, {"order", row.order}, {"ranks", row.ranks}, {"bytes", row.bytes},
                      {"measured_s", row.measured_s}, {"simulated_s", row.simulated_s}, {"error", row.error()},
                      {"measured_busbw_GBps", busbw_GBps(row.bytes, row.measured_s, row.ranks)},
                      {"simulated_busbw_GBps", busbw_GBps(row.bytes, row.simulated_s, row.ranks)}});
      compared.push_back(row);
    }
    fmt::print("\n");
  }
  const ErrorSummary all = summarize(compared, 0), judged = summarize(compared, min_bytes);
  print_summary("all sizes", all);
  print_summary(fmt::format("sizes >= {}", format_bytes(min_bytes)).c_str(), judged);
  if (judged.count == 0) throw InputError(fmt::format("{}: no measured size at or above --min-bytes {}", trace_file, min_bytes));
  const bool pass = judged.median_abs_error <= tolerance;
  fmt::print("# {}: median |error| {:.1f}% {} the tolerance {:.1f}%\n", pass ? "PASS" : "FAIL",
             judged.median_abs_error * 100, pass ? "within" : "exceeds", tolerance * 100);

  if (auto json = args.value("--json")) {
    nlohmann::json document = {{"kind", "validation"},
                               {"scenario", scenario.name},
                               {"trace", {{"file", trace_file}, {"format", trace.format}, {"summary", trace.summary()}}},
                               {"model", scenario.model.to_json()},
                               {"tolerance", tolerance},
                               {"min_bytes", min_bytes},
                               {"sizes", rows},
                               {"summary", {{"all", summary_json(all)}, {"judged", summary_json(judged)}}},
                               {"pass", pass}};
    write_file_atomically(*json, document.dump(2) + "\n");
  }
  return pass ? 0 : 1;
}

}  // namespace ringsim
