// `ringsim sweep plan|run|status|merge`: a sweep file (docs/sweeps.md) expanded into cases, run in
// shards locally or as a Slurm job array, each shard's results in its own file, merged into one
// results JSON that `ringsim report` and `validate` read.
#include "../cases/case_jobs.h"
#include "../cases/process_pool.h"
#include "../common/input_error.h"
#include "../common/signal_guard.h"
#include "../results/results_output.h"
#include "../sweep/loaded_sweep.h"
#include "../sweep/sweep_directory.h"
#include "../sweep/sweep_run.h"
#include "command_line.h"
#include "commands.h"
#include "progress_bar.h"
#include "sweep_slurm.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

constexpr const char* kSweepUsage = R"(usage: ringsim sweep plan SWEEP.json [--jobs J]
       ringsim sweep run SWEEP.json --out DIR [--jobs J] [--shard I/K | --shards K] [--quiet] [--slurm [-- SBATCH_ARGS]]
       ringsim sweep status DIR
       ringsim sweep merge DIR -o RESULTS.json

A sweep file (docs/sweeps.md) is a cartesian product of topologies, placements (listed, or generated:
{"every_placement": N}, {"every_subset": K, "ranks_per_node": R}), algorithms, sizes and model variants
("variants", "model_axes"). A case is one placement x algorithm under one topology and variant, every
size simulated in one run, exactly as `ringsim run` simulates it.

  plan     the number of cases and an estimate of the wall time; nothing runs
  run      the cases, split into K shards (case c belongs to shard c mod K); each finished shard is
           written to DIR/shard-I-of-K.json atomically, so a re-run skips finished shards and an
           interrupted shard leaves no file. --shard I/K runs shard I only (what each Slurm task does).
           --slurm writes DIR/slurm/sweep.sbatch and submits it as `sbatch --array` (one task per shard
           not yet done); arguments after -- go to sbatch.
  status   shards done, failed and pending, from the files (and squeue/sacct for a submitted array)
  merge    one results JSON (the schema of `ringsim run --json`), rows in case order

options:
  --out DIR        the sweep's directory (created; must hold this sweep's shards or none)
  --jobs J         simulations at once (default: the number of cores)
  --shards K       how many shards (default: the directory's, else one per 8 cases)
  --shard I/K      run shard I of K only (0-based)
  --quiet          no progress bar
  -o FILE          merge: the results JSON to write (atomically)
)";

std::string format_duration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.1f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

int plan_command(const ParsedArguments& args) {
  if (args.positional.size() != 2) throw UsageError("ringsim sweep plan: expected exactly one SWEEP.json");
  const LoadedSweep sweep = load_and_expand(args.positional[1]);
  const SweepSpec& spec = sweep.spec;
  const std::size_t cases = sweep.expanded.cases.size();
  const std::size_t variants = std::max<std::size_t>(1, spec.variants.size());
  fmt::print("# Sweep {} ({})\n", spec.name, spec.file.string());
  if (!spec.question.empty()) fmt::print("# Question: {}\n", spec.question);
  for (std::size_t g = 0; g < sweep.expanded.groups.size(); g += variants) {
    const Scenario& scenario = sweep.expanded.groups[g].scenario;
    std::set<int> ranks;
    for (const auto& placement : scenario.placements) ranks.insert(placement.total_ranks());
    fmt::print("topology {}: {} placements ({} to {} ranks)\n", scenario.topology.string(), scenario.placements.size(),
               *ranks.begin(), *ranks.rbegin());
  }
  fmt::print("{} topolog{} x {} variant{} x placements x {} algorithm{} = {} {}, each over {} size{} ({} result rows)\n",
             spec.topologies.size(), spec.topologies.size() == 1 ? "y" : "ies", variants, variants == 1 ? "" : "s",
             spec.algorithms.size(), spec.algorithms.size() == 1 ? "" : "s", cases, plural(cases, "case", "cases"),
             spec.sizes.size(), spec.sizes.size() == 1 ? "" : "s", cases * spec.sizes.size());
  std::vector<std::size_t> all(cases);
  for (std::size_t c = 0; c < cases; ++c) all[c] = c;
  const int jobs = jobs_option(args);
  const double total = estimated_cases_seconds(sweep, all);
  fmt::print("estimated wall time: {} with {} job{} ({} of simulation in all)\n", format_duration(total / jobs), jobs,
             jobs == 1 ? "" : "s", format_duration(total));
  fmt::print("basis: per case 0.9 s of start-up + 0.01 s per rank and size + 0.2 s per simulated GiB on the wire\n"
             "       (2 x size x ranks x (iterations + warm-up), summed over sizes), divided over the jobs; measured\n"
             "       with SMPI on a loaded 2-core machine (docs/sweeps.md); expect within ~2x\n");
  return 0;
}

// SIGINT/SIGTERM between two shards (while cases run, the process pool stops the run): noted, and
// the run stops once the shard at hand is written, so that no signal cuts a results file short.
void stop_if_interrupted(const SignalGuard& signals) {
  if (const int signal_number = signals.noted(); signal_number != 0)
    throw Interrupted(signal_number, fmt::format("interrupted by signal {}: finished shards are kept; run again to resume", signal_number));
}

std::size_t default_shards(std::size_t cases) { return std::max<std::size_t>(1, (cases + 7) / 8); }

// Runs SHARDS in turn under one progress bar; returns 1 when any shard failed.
int run_shards(const LoadedSweep& sweep, const SweepDirectory& dir, const std::vector<ShardId>& shards, int jobs, bool quiet) {
  std::size_t total = 0;
  for (const ShardId& shard : shards) total += cases_of_shard(sweep.expanded.cases.size(), shard).size();
  ProgressBar progress(total, quiet);
  const SignalGuard signals;
  int status = 0;
  for (const ShardId& shard : shards) {
    const auto cases = cases_of_shard(sweep.expanded.cases.size(), shard);
    SweepCasesOutcome outcome;
    try {
      stop_if_interrupted(signals);
      outcome = run_sweep_cases(sweep.spec, sweep.expanded, sweep.platforms, cases, jobs,
                                [&](bool ok) { progress.case_done(ok); });
    } catch (const Interrupted&) {
      progress.finish();
      throw;
    }
    if (outcome.rows) {
      dir.write_done(shard, sweep.digest, *outcome.rows);
      continue;
    }
    progress.finish();
    dir.write_failed(shard, outcome.failures);
    for (const auto& failure : outcome.failures) fmt::print(stderr, "ringsim: case failed: {}", failure);
    fmt::print(stderr, "ringsim: shard {}/{} failed; written to {}\n", shard.index, shard.count, dir.failed_file(shard).string());
    status = 1;
  }
  progress.finish();
  return status;
}

// The shard count: --shard's K, --shards K, the directory's, else one shard per 8 cases.
std::size_t shard_count(const ParsedArguments& args, const std::optional<ShardId>& only, const SweepDirectory& dir,
                        std::size_t cases) {
  if (only) return only->count;
  if (auto shards = args.value("--shards")) return static_cast<std::size_t>(positive_int_option("--shards", *shards));
  if (std::filesystem::exists(dir.path() / "sweep-manifest.json")) return dir.manifest().shards;
  return default_shards(cases);
}

int run_command_of_sweep(const ParsedArguments& args, const std::vector<std::string>& sbatch_args) {
  if (args.positional.size() != 2) throw UsageError("ringsim sweep run: expected exactly one SWEEP.json");
  const auto out = args.value("--out");
  if (!out) throw UsageError("ringsim sweep run: --out DIR is required");
  std::optional<ShardId> only;
  if (auto text = args.value("--shard")) {
    only = parse_shard(*text);
    if (!only) throw UsageError(fmt::format("option --shard takes I/K with 0 <= I < K, not \"{}\"", *text));
  }
  if (only && args.has("--slurm")) throw UsageError("ringsim sweep run: --slurm submits every shard; it takes no --shard");
  const int jobs = jobs_option(args);
  const LoadedSweep sweep = load_and_expand(args.positional[1]);
  const SweepDirectory dir(*out);
  const std::size_t shards = shard_count(args, only, dir, sweep.expanded.cases.size());
  dir.claim({args.positional[1], sweep.digest, sweep.expanded.cases.size(), shards, merged_document_header(sweep.spec)});

  std::vector<ShardId> pending;
  for (std::size_t s = 0; s < shards; ++s)
    if ((!only || only->index == s) && dir.state(s, shards) != ShardState::done) pending.push_back({s, shards});
  if (args.has("--slurm"))
    return submit_slurm_array(SlurmSubmission{std::filesystem::absolute(args.positional[1]), std::filesystem::absolute(*out),
                                              shards, pending, sbatch_args});
  if (!args.has("--quiet"))
    fmt::print(stderr, "ringsim: sweep {}: {} cases in {} shards; {} to run ({} already done), {} at a time\n",
               sweep.spec.name, sweep.expanded.cases.size(), shards, pending.size(),
               (only ? 1 : shards) - pending.size(), jobs);
  return run_shards(sweep, dir, pending, jobs, args.has("--quiet"));
}

int status_command(const ParsedArguments& args) {
  if (args.positional.size() != 2) throw UsageError("ringsim sweep status: expected exactly one DIR");
  const SweepDirectory dir(args.positional[1]);
  const SweepManifest manifest = dir.manifest();
  std::map<ShardState, std::vector<std::size_t>> shards;
  std::map<ShardState, std::size_t> cases;
  for (std::size_t s = 0; s < manifest.shards; ++s) {
    const ShardState state = dir.state(s, manifest.shards);
    shards[state].push_back(s);
    cases[state] += cases_of_shard(manifest.cases, {s, manifest.shards}).size();
  }
  fmt::print("sweep {} ({} cases in {} shards) in {}\n", manifest.sweep, manifest.cases, manifest.shards, dir.path().string());
  const std::pair<ShardState, const char*> names[] = {{ShardState::done, "done"}, {ShardState::failed, "failed"},
                                                      {ShardState::pending, "pending"}};
  for (const auto& [state, name] : names) {
    const auto& list = shards[state];
    fmt::print("{:<8} {:>5} shards {:>7} cases", name, list.size(), cases[state]);
    if (state != ShardState::done && !list.empty() && list.size() <= 20) fmt::print("  (shards {})", fmt::join(list, ", "));
    fmt::print("\n");
  }
  print_slurm_status(dir.path());
  return 0;
}

int merge_command(const ParsedArguments& args) {
  if (args.positional.size() != 2) throw UsageError("ringsim sweep merge: expected exactly one DIR");
  const auto output = args.value("-o");
  if (!output) throw UsageError("ringsim sweep merge: -o RESULTS.json is required");
  check_output_file("-o", *output);
  const ResultsDocument document = SweepDirectory(args.positional[1]).merge();
  document.save(*output);
  fmt::print(stderr, "ringsim: {} rows written to {}\n", document.rows.size(), *output);
  return 0;
}

}  // namespace

int sweep_command(int argc, char** argv) {
  // Everything after "--" goes to sbatch untouched.
  int own = argc;
  std::vector<std::string> sbatch_args;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--") {
      own = i;
      sbatch_args.assign(argv + i + 1, argv + argc);
      break;
    }
  const ParsedArguments args =
      parse_arguments(own, argv, 1, "sweep", {"--out", "--jobs", "--shard", "--shards", "-o"}, {"--quiet", "--slurm"});
  if (args.has("--help") || args.positional.empty()) {
    std::fputs(kSweepUsage, args.has("--help") ? stdout : stderr);
    return args.has("--help") ? 0 : 2;
  }
  const std::string& action = args.positional[0];
  if (!sbatch_args.empty() && !(action == "run" && args.has("--slurm")))
    throw UsageError("ringsim sweep: arguments after -- are for sbatch, with run --slurm only");
  if (action == "plan") return plan_command(args);
  if (action == "run") return run_command_of_sweep(args, sbatch_args);
  if (action == "status") return status_command(args);
  if (action == "merge") return merge_command(args);
  throw UsageError(fmt::format("ringsim sweep: unknown action \"{}\"; expected plan, run, status or merge", action));
}

}  // namespace ringsim
