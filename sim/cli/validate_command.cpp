// `ringsim validate`: simulate the scenario at exactly the sizes (and placements) a measured trace
// holds, compare size by size, and judge the median |error| above --min-bytes against a tolerance.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../results/results_output.h"
#include "../validate/regime_verdict.h"
#include "../validate/suite_validation.h"
#include "../validate/trace_validation.h"
#include "command_line.h"
#include "diagnosis_output.h"
#include "commands.h"
#include "log_topology_facts.h"
#include "trace_input.h"
#include "../validate/trace_learning.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ringsim {
namespace {

constexpr const char* kValidateUsage = R"(usage: ringsim validate SCENARIO.json --measured TRACE [--format F] [--tolerance 0.10]
                        [--min-bytes SIZE] [--select P/ORDER,...] [--ranks N] [--collective NAME] [--model MODEL.json]
                        [--json FILE] [--jobs N] [--quiet] [--explain]

Simulates the scenario (its topology and model describe the measured cluster) at exactly the sizes the
trace holds, compares size by size — measured time, simulated time, relative error (simulated/measured
- 1), measured and simulated busbw — and summarises the errors: median |error|, geometric-mean error
(the bias) and the worst size, over all sizes and over those >= --min-bytes. Exit status 1 when the
median |error| above --min-bytes exceeds --tolerance. --min-bytes names the size nccl-tests was asked
for: its all-gather, reduce-scatter and alltoall rows are printed up to ranks x 16 bytes below it
(whole 16-byte blocks per rank), and the row printed for it is judged.

Placements: ringsim traces carry theirs; other formats take the scenario's one placement, or, when the
scenario lists none, the one an nccl-tests header implies (ranks per host, hosts in order of first
appearance; block or cyclic), printed as "# placement inferred from the trace's header: ...".
NCCL's log lines in an nccl-tests trace (NCCL_DEBUG=INFO) or NCCL_* settings on its command line set
what the scenario leaves open: NCCL_ALGO=Ring or Tree the algorithm (nccl_ring, nccl_tree; none
forced: nccl, NCCL's own choice per size), NCCL_PROTO the model's nccl.protocol, the channels NCCL
lists nccl.channels; each is one "# ..." line. A measured busbw above what NCCL's ring can reach
through the NICs used is a "# note: ... NCCL probably ran a tree" line; on one NVLink node, above what
it can reach over NVLink, "... NCCL probably ran NVLS". For NCCL's algorithms each table also gives
NCCL's own time model at each size, its error against the same measurement and what ran (nccl model(us),
model err, nccl ran), summarised after the simulation's errors and not judged.
Then, per regime (consecutive sizes that ran the same algorithm and protocol; at least 3), the line
time = latency + size / bandwidth fitted to the measured and to the simulated times, measured ->
simulated: a gap in the latency is a cost paid once per call, a gap in the busbw a rate.
  --format F         the trace's format (default: detected): ringsim, nccl-tests, osu, imb, horovod-timeline
  --tolerance X      allowed median |error| above --min-bytes (default 0.10)
  --min-bytes SIZE   sizes below are reported but not judged (default 0)
  --select LIST      ringsim traces: only these placements, e.g. 4-2-2/cyclic,4-3-1/cyclic
  --ranks N          IMB: the process count to compare (default: the scenario placement's rank count)
  --collective NAME  nccl-tests: the run to read from a log of several: all_reduce_perf, all_gather_perf,
                     reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf or sendrecv_perf is
                     compared with a simulation of that collective by the scenario's algorithm (e.g. nccl,
                     nccl_ring, ring, pairwise), sizes and busbw as nccl-tests counts them. Without it (or
                     with "all"), every run of a suite log is compared, one report after the other, all
                     simulated as one pool of cases, then a summary table per collective; a collective the
                     scenario's algorithm has no version of is simulated by nccl (NCCL's choice) for NCCL's
                     algorithms, else reported as not simulated, with the reason. NCCL's facts are learned
                     from the all_reduce_perf run (else the first). A log of one run is read as before
  --model FILE       model keys merged over the scenario's (e.g. from ringsim calibrate)
  --json FILE        write the comparison as JSON
  --jobs N           simulations at once (default: the number of cores); each size is simulated once,
                     and a case's sizes are split across the N runners
  --explain          also simulate each candidate mechanism that could make the run slower than the
                     hardware (half the NICs, GDR off, 2 channels, a 2:1 switch, PXN off, a cost per call,
                     a rate ceiling; those the log's INFO lines exclude are not), rank them by their median |log error|
                     and name the one that explains the run and what would confirm it (docs/diagnosis.md)
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

// (TO / FROM - 1) in percent; 0 when FROM is 0.
double relative_change(double from, double to) { return from > 0 ? (to / from - 1) * 100 : 0; }

// Bus bandwidth of a line's per-byte cost, as the table's busbw columns count it.
double line_busbw_GBps(const TimeLine& line, int ranks, Collective collective) {
  const std::uint64_t bytes = 1ull << 30;
  return busbw_GBps(bytes, static_cast<double>(bytes) / line.bytes_per_s, ranks, collective);
}

// Per regime, the measured and simulated latency and bandwidth, each with the simulation's relative
// difference, then one sentence saying what the error is; where the time is the latency's at every
// size, the fitted bandwidths are not compared. CALIBRATE: the command that fits what the sentences
// name, or empty when the model is already a calibrated one (--model): then no advice.
void print_regimes(const std::vector<RegimeSplit>& regimes, Collective collective, const std::string& calibrate) {
  if (regimes.empty()) return;
  fmt::print("# latency and bandwidth per regime, measured -> simulated (time = latency + size / bandwidth, fitted in relative error):\n");
  for (const RegimeSplit& regime : regimes) {
    const double measured_busbw = line_busbw_GBps(regime.measured, regime.ranks, collective);
    const double simulated_busbw = line_busbw_GBps(regime.simulated, regime.ranks, collective);
    const std::string busbw = latency_bound(regime)
                                  ? std::string("busbw not compared (latency-bound)")
                                  : fmt::format("busbw {:.4g} -> {:.4g} GB/s ({:+.1f}%)", measured_busbw, simulated_busbw,
                                                relative_change(measured_busbw, simulated_busbw));
    fmt::print("#   {}{}{}, {}-{} ({} sizes): latency {:.1f} -> {:.1f} us ({:+.1f}%), {}\n", regime.case_label,
               regime.ran.empty() ? "" : " ", regime.ran, format_bytes(regime.from_bytes), format_bytes(regime.to_bytes),
               regime.sizes, regime.measured.latency_s * 1e6, regime.simulated.latency_s * 1e6,
               relative_change(regime.measured.latency_s, regime.simulated.latency_s), busbw);
    const bool advise = !calibrate.empty() && regime_needs_calibration(regime);
    fmt::print("#     {}{}\n", regime_verdict(regime), advise ? ": calibration fits it (below)" : "");
  }
  if (!calibrate.empty() && std::any_of(regimes.begin(), regimes.end(), regime_needs_calibration))
    fmt::print("# calibrate with: {}\n", calibrate);
}

// A table per case, the two summaries and the verdict. Throws InputError (after the tables) when no
// size is at or above --min-bytes, since there is then nothing to judge. MODEL_GIVEN: a --model file (a
// calibrated model, as a rule) was applied, so the regime lines advise no calibration.
void print_validation(const Validation& validation, const Scenario& scenario, const TraceInput& input,
                      const ValidationOptions& options, bool model_given) {
  for (const ComparedCase& compared : validation.cases) {
    const std::string collective =
        input.trace.collective == Collective::all_reduce ? "" : fmt::format("{} ", collective_name(input.trace.collective));
    fmt::print("# {} {}{}, {} ranks: measured ({}) vs simulated\n", compared.label, collective, validation.algorithm, compared.ranks,
               input.trace.format);
    // NCCL's algorithms add NCCL's own model and what ran, after the simulation's columns (every size has them).
    const bool model = validation.nccl_model_all.has_value();
    fmt::print("#{:>11} {:>13} {:>13} {:>8} {:>13} {:>13}{}\n", "size", "measured(us)", "simulated(us)", "error",
               "meas.busbw", "sim.busbw", model ? fmt::format(" {:>14} {:>10} {:>16}", "nccl model(us)", "model err", "nccl ran") : "");
    for (const ComparedSize& row : compared.sizes)
      fmt::print(" {:>11} {:>13.1f} {:>13.1f} {:>+7.1f}% {:>13.4f} {:>13.4f}{}{}\n", row.bytes, row.measured_s * 1e6,
                 row.simulated_s * 1e6, row.error() * 100, busbw_GBps(row.bytes, row.measured_s, row.ranks, input.trace.collective),
                 busbw_GBps(row.bytes, row.simulated_s, row.ranks, input.trace.collective),
                 model ? fmt::format(" {:>14.1f} {:>+9.1f}% {:>16}", *row.nccl_model_s * 1e6, *row.nccl_model_error() * 100,
                                     row.nccl_ran.value_or("-"))
                       : "",
                 row.bytes < options.min_bytes ? "  (below --min-bytes)" : "");
    fmt::print("\n");
  }
  print_summary("all sizes", validation.all);
  print_summary(fmt::format("sizes >= {}", judged_from_text(options)).c_str(), validation.judged);
  if (validation.nccl_model_all) {
    print_summary("NCCL's own model (not judged), all sizes", *validation.nccl_model_all);
    print_summary(fmt::format("NCCL's own model (not judged), sizes >= {}", judged_from_text(options)).c_str(),
                  *validation.nccl_model_judged);
  }
  print_regimes(validation.regimes, input.trace.collective, model_given ? std::string()
                                                       : fmt::format("ringsim calibrate {} --measured {} -o MODEL.json",
                                                                     scenario.file.string(), input.file));
  if (validation.judged.count == 0)
    throw InputError(fmt::format("{}: no measured size at or above --min-bytes {}", input.file, options.min_bytes_as_given()));
  fmt::print("# {}: median |error| {:.1f}% {} the tolerance {:.1f}%\n", validation.pass ? "PASS" : "FAIL",
             validation.judged.median_abs_error * 100, validation.pass ? "within" : "exceeds", options.tolerance * 100);
}

nlohmann::json trace_json(const TraceInput& input) {
  nlohmann::json trace = {{"file", input.file}, {"format", input.trace.format}, {"summary", input.trace.summary()}};
  if (input.trace.run && input.trace.run->library_version)
    trace["library"] = {{"name", input.trace.run->library}, {"version", *input.trace.run->library_version}};
  if (input.grouped.placement_from_header) trace["inferred_placement"] = input.grouped.from_header->placement->label();
  return trace;
}

// validate's document: what was compared (SCENARIO, INPUT's trace) under which model and bounds, its ROWS,
// SUMMARY, REGIMES and verdict.
nlohmann::json validation_document(const Scenario& scenario, const TraceInput& input, const ValidationOptions& options,
                                   nlohmann::json rows, nlohmann::json summary, nlohmann::json regimes, bool pass) {
  return {{"kind", "validation"},
          {"scenario", scenario.name},
          {"trace", trace_json(input)},
          {"model", scenario.model.to_json()},
          {"tolerance", options.tolerance},
          {"min_bytes", options.min_bytes_as_given()},
          {"judged_from_bytes", options.min_bytes},
          {"sizes", std::move(rows)},
          {"summary", std::move(summary)},
          {"regimes", std::move(regimes)},
          {"pass", pass}};
}

nlohmann::json validation_json(const Validation& validation, const Scenario& scenario, const TraceInput& input,
                               const ValidationOptions& options) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ComparedCase& compared : validation.cases)
    for (const ComparedSize& row : compared.sizes) {
      rows.push_back({{"placement", row.placement}, {"order", row.order}, {"ranks", row.ranks}, {"bytes", row.bytes},
                      {"measured_s", row.measured_s}, {"simulated_s", row.simulated_s}, {"error", row.error()},
                      {"measured_busbw_GBps", busbw_GBps(row.bytes, row.measured_s, row.ranks, input.trace.collective)},
                      {"simulated_busbw_GBps", busbw_GBps(row.bytes, row.simulated_s, row.ranks, input.trace.collective)}});
      if (row.nccl_model_s) {
        rows.back()["nccl_model_s"] = *row.nccl_model_s;
        rows.back()["nccl_model_error"] = *row.nccl_model_error();
      }
      if (row.nccl_ran) rows.back()["nccl_ran"] = *row.nccl_ran;
      if (input.trace.collective != Collective::all_reduce)
        rows.back()["collective"] = std::string(collective_name(input.trace.collective));
    }
  nlohmann::json regimes = nlohmann::json::array();
  for (const RegimeSplit& regime : validation.regimes)
    regimes.push_back({{"case", regime.case_label},
                       {"nccl_ran", regime.ran},
                       {"from_bytes", regime.from_bytes},
                       {"to_bytes", regime.to_bytes},
                       {"sizes", regime.sizes},
                       {"latency_bound", latency_bound(regime)},
                       {"verdict", regime_verdict(regime)},
                       {"measured", {{"latency_s", regime.measured.latency_s}, {"fitted_busbw_GBps", line_busbw_GBps(regime.measured, regime.ranks, input.trace.collective)}}},
                       {"simulated", {{"latency_s", regime.simulated.latency_s}, {"fitted_busbw_GBps", line_busbw_GBps(regime.simulated, regime.ranks, input.trace.collective)}}}});
  nlohmann::json summary = {{"all", summary_json(validation.all)}, {"judged", summary_json(validation.judged)}};
  if (validation.nccl_model_all)
    summary["nccl_model"] = {{"all", summary_json(*validation.nccl_model_all)}, {"judged", summary_json(*validation.nccl_model_judged)}};
  return validation_document(scenario, input, options, rows, summary, regimes, validation.pass);
}

// --explain: the validation is the diagnosis's baseline (run_diagnosis.h), printed as validate prints it, then
// the ranking of the candidates; --json carries both.
int explain_run(const Scenario& scenario, const Platform& platform, const TraceInput& input, const ValidationOptions& options,
                const ParsedArguments& args) {
  const NcclRunFacts* facts = input.trace.run && input.trace.run->nccl ? &*input.trace.run->nccl : nullptr;
  const auto diagnosis = diagnose_run(scenario, platform, input.grouped, facts, options);
  if (!diagnosis) return 1;
  const Validation& validation = diagnosis->validation;
  print_validation(validation, scenario, input, options, args.value("--model").has_value());
  print_diagnosis(*diagnosis, options);
  if (auto json = args.value("--json")) {
    nlohmann::json document = validation_json(validation, scenario, input, options);
    document["diagnosis"] = diagnosis_json(*diagnosis);
    write_file_atomically(*json, document.dump(2) + "\n");
  }
  return validation.pass ? 0 : 1;
}

// The suite's runs read one by one (each prints which it read); a program ringsim does not simulate is
// kept, not read.
std::vector<SuiteRun> read_suite(const ParsedArguments& args, const Scenario& scenario, const std::vector<std::string>& programs) {
  std::vector<SuiteRun> runs;
  for (const std::string& program : programs) {
    SuiteRun run{program, nccl_tests_collective(program), std::nullopt, "", "", std::nullopt, {}};
    if (run.collective) run.input = read_trace_input(args, scenario, "validate", program);
    else run.not_simulated = fmt::format("ringsim simulates none of {}'s collective", program);
    runs.push_back(std::move(run));
  }
  return runs;
}

// The run NCCL's facts are learned from (its placement, version, algorithm): all_reduce_perf's, else the first read.
const TraceInput& primary_input(const std::vector<SuiteRun>& runs) {
  const SuiteRun* primary = nullptr;
  for (const SuiteRun& run : runs)
    if (run.input && (primary == nullptr || (run.collective == Collective::all_reduce && primary->collective != Collective::all_reduce)))
      primary = &run;
  if (primary == nullptr) throw InputError("the suite holds no run of a collective ringsim simulates");
  return *primary->input;
}

// The closing table: per collective, the algorithm, the median |error| over all sizes and from --min-bytes
// with the geometric-mean error there, and the verdict; then the suite's verdict.
void print_suite_summary(const std::vector<SuiteRun>& runs, const ValidationOptions& options) {
  const std::string judged = fmt::format(">= {}", format_bytes(options.min_bytes));
  fmt::print("# suite: median |error| per collective over all sizes and sizes {}, geometric-mean error of the latter\n", judged);
  fmt::print("#{:>15} {:>10} {:>6} {:>10} {:>10} {:>10}  {}\n", "collective", "algorithm", "sizes", "all sizes", judged, "geomean",
             "verdict");
  std::vector<std::string> failed;
  std::size_t simulated = 0;
  for (const SuiteRun& run : runs) {
    const std::string name = run.collective ? std::string(collective_name(*run.collective)) : run.program;
    if (!run.validation) {
      fmt::print(" {:>15} {:>10} {:>6} {:>10} {:>10} {:>10}  not simulated: {}\n", name, "-", "-", "-", "-", "-", run.not_simulated);
      continue;
    }
    const Validation& validation = *run.validation;
    ++simulated;
    if (!validation.pass) failed.push_back(name);
    fmt::print(" {:>15} {:>10} {:>6} {:>9.1f}% {:>9.1f}% {:>+9.1f}%  {}\n", name, run.algorithm, validation.all.count,
               validation.all.median_abs_error * 100, validation.judged.median_abs_error * 100,
               validation.judged.geomean_error * 100, validation.pass ? "PASS" : "FAIL");
  }
  if (simulated == 0) return fmt::print("# FAIL: no collective of the suite is simulated\n");
  if (failed.empty())
    return fmt::print("# PASS: every simulated collective within the tolerance {:.1f}% ({} of {} simulated)\n",
                      options.tolerance * 100, simulated, runs.size());
  fmt::print("# FAIL: {} {} the tolerance {:.1f}% ({} of {} simulated)\n", fmt::join(failed, ", "),
             failed.size() == 1 ? "exceeds" : "exceed", options.tolerance * 100, simulated, runs.size());
}

// validate's document for a suite: every simulated run's rows and regimes, each with its "collective",
// a "collectives" entry per run (its summary and verdict, or why it was not simulated), and the summary
// over every compared size.
nlohmann::json suite_json(const std::vector<SuiteRun>& runs, const Scenario& scenario, const TraceInput& primary,
                          const ValidationOptions& options) {
  nlohmann::json rows = nlohmann::json::array(), regimes = nlohmann::json::array(), collectives = nlohmann::json::array();
  std::vector<ComparedSize> every_size, judged_sizes;  // each run's judged from its own row for --min-bytes
  for (const SuiteRun& run : runs) {
    nlohmann::json entry = {{"program", run.program}, {"simulated", run.validation.has_value()}};
    if (run.collective) entry["collective"] = std::string(collective_name(*run.collective));
    if (!run.validation) {
      entry["reason"] = run.not_simulated;
      collectives.push_back(entry);
      continue;
    }
    const nlohmann::json one = validation_json(*run.validation, scenario, *run.input, run.options);
    for (nlohmann::json row : one.at("sizes")) {
      row["collective"] = entry["collective"];
      rows.push_back(row);
    }
    for (nlohmann::json regime : one.at("regimes")) {
      regime["collective"] = entry["collective"];
      regimes.push_back(regime);
    }
    entry["algorithm"] = run.algorithm;
    entry["summary"] = one.at("summary");
    entry["pass"] = run.validation->pass;
    collectives.push_back(entry);
    for (const ComparedCase& compared : run.validation->cases)
      for (const ComparedSize& row : compared.sizes) {
        every_size.push_back(row);
        if (row.bytes >= run.options.min_bytes) judged_sizes.push_back(row);
      }
  }
  nlohmann::json document = validation_document(
      scenario, primary, options, rows,
      {{"all", summary_json(summarize(every_size, 0))}, {"judged", summary_json(summarize(judged_sizes, 0))}},
      regimes, suite_passes(runs));
  document["collectives"] = collectives;
  return document;
}

// Every run of a suite log: read, learned from, simulated as one pool, reported one after the other,
// then the summary table.
int validate_suite_log(Scenario scenario, Platform platform, const std::vector<std::string>& programs,
                       const ValidationOptions& options, const ParsedArguments& args) {
  std::vector<SuiteRun> runs = read_suite(args, scenario, programs);
  const TraceInput& primary = primary_input(runs);
  print_placement_source(primary, scenario, options.quiet);
  adopt_log_topology_facts(platform, primary);
  for (const SuiteRun& run : runs)
    if (run.input) check_trace_placements_fit(*run.input, scenario, platform.layout);
  learn_trace_nccl_run(scenario, primary, platform);
  note_tree_signature(scenario, primary, platform);
  const std::string algorithm = validation_algorithm(scenario);
  for (SuiteRun& run : runs) {
    if (!run.input) continue;
    if (!options.quiet) fmt::print(stderr, "ringsim: read {}\n", run.input->trace.summary());
    if (auto chosen = suite_algorithm(algorithm, *run.collective, run.not_simulated)) run.algorithm = *chosen;
  }
  if (!validate_suite(scenario, platform, runs, options)) return 1;
  const bool model_given = args.value("--model").has_value();
  for (const SuiteRun& run : runs) {
    if (!run.validation) {
      fmt::print("# {}: not simulated: {}\n\n", run.program, run.not_simulated);
      continue;
    }
    fmt::print("# {}, simulated by {}:\n", run.program, run.algorithm);
    print_validation(*run.validation, scenario, *run.input, run.options, model_given);
    fmt::print("\n");
  }
  print_suite_summary(runs, options);
  if (auto json = args.value("--json")) write_file_atomically(*json, suite_json(runs, scenario, primary, options).dump(2) + "\n");
  return suite_passes(runs) ? 0 : 1;
}

// The programs of the suite log to compare one after the other: with --collective all, or none on a log of
// several runs; empty for one run (read as before) or --explain (which diagnoses one run).
std::vector<std::string> suite_programs_to_compare(const ParsedArguments& args) {
  const auto collective = args.value("--collective");
  const bool all = collective == std::optional<std::string>("all");
  if (args.has("--explain")) {
    if (all) throw UsageError("ringsim validate: --explain diagnoses one run: give --collective NAME, not all");
    return {};
  }
  const auto file = args.value("--measured");
  if ((collective && !all) || !file) return {};
  std::vector<std::string> programs = suite_programs(*file, args.value("--format"));
  if (all && programs.empty())
    throw InputError(fmt::format("{}: --collective all reads the runs of an nccl-tests log; this trace is not one", *file));
  return programs.size() > 1 ? programs : std::vector<std::string>{};
}

}  // namespace

int validate_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(
      argc, argv, 1, "validate",
      {"--measured", "--select", "--format", "--collective", "--tolerance", "--min-bytes", "--ranks", "--model", "--json", "--jobs"},
      {"--quiet", "--explain"});
  if (args.has("--help")) {
    std::fputs(kValidateUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim validate: expected exactly one SCENARIO.json");
  ValidationOptions options;
  if (auto tolerance = args.value("--tolerance")) options.tolerance = number_option("--tolerance", *tolerance, 0, 100, "0.10");
  if (auto min_bytes = args.value("--min-bytes")) options.min_bytes = bytes_option("--min-bytes", *min_bytes);
  options.jobs = jobs_option(args);
  options.quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);

  Scenario scenario = load_scenario(args.positional[0], PlacementsKey::optional);
  if (auto model = args.value("--model")) scenario.model = load_model_file(*model, scenario.model);
  Platform platform = load_platform(scenario.topology);
  const std::vector<std::string> suite = suite_programs_to_compare(args);
  if (!suite.empty()) return validate_suite_log(std::move(scenario), std::move(platform), suite, options, args);
  // --collective all on a log of one run reads that run.
  std::optional<std::string> collective;
  if (args.value("--collective") == std::optional<std::string>("all")) collective = suite_programs(*args.value("--measured"), args.value("--format")).front();
  const TraceInput input = read_trace_input(args, scenario, "validate", collective);
  options = options_for_trace(options, input.grouped, input.trace.format);
  print_placement_source(input, scenario, options.quiet);
  adopt_log_topology_facts(platform, input);
  check_trace_placements_fit(input, scenario, platform.layout);
  learn_trace_nccl_run(scenario, input, platform);
  note_tree_signature(scenario, input, platform);
  if (!options.quiet) {
    fmt::print(stderr, "ringsim: read {}\n", input.trace.summary());
    for (auto bytes : input.grouped.skipped) fmt::print(stderr, "ringsim: skipping {} B (not a whole float32 buffer)\n", bytes);
  }
  if (args.has("--explain")) return explain_run(scenario, platform, input, options, args);
  const auto validation = validate_against_trace(scenario, platform, input.grouped, options);
  if (!validation) return 1;
  print_validation(*validation, scenario, input, options, args.value("--model").has_value());
  if (auto json = args.value("--json")) write_file_atomically(*json, validation_json(*validation, scenario, input, options).dump(2) + "\n");
  return validation->pass ? 0 : 1;
}

}  // namespace ringsim
