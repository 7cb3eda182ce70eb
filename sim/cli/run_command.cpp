// `ringsim run`: scenario + platform + placements -> one smpirun per case, run in parallel,
// then tables, a comparison, and the results JSON.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../launcher/results_table.h"
#include "../launcher/smpi_case.h"
#include "../rank/algorithm_catalog.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <thread>

namespace ringsim {
namespace {

constexpr const char* kRunUsage = R"(usage: ringsim run SCENARIO.json [--json FILE] [--out DIR] [--jobs N] [--model MODEL.json]

Simulates every placement x algorithm of the scenario with SimGrid's SMPI (one smpirun per case, each
running the real rank program over every size) and prints, per case, a table like nccl-tests':
  size, count, type, time(us) = median over iterations of the slowest rank, algbw = size/time,
  busbw = algbw * 2(n-1)/n, #wrong = elements that differ from the expected sum (N/A: not checked,
  because size x ranks exceeds 128 MiB and the buffers are SMPI-shared to save memory).
Then a comparison of every case against the first, size by size.

options:
  --json FILE        also write the results JSON (README "Results"); written atomically
  --out DIR          keep each case's platform, hostfile, smpirun log, report and per-step events in DIR
  --jobs N           simulations run at once (default: the number of cores)
  --model FILE       a JSON object of model keys merged over the scenario's "model"
  --quiet            no progress lines on standard error

algorithms:
)";

// The run's scratch space: the --out directory (kept) or a temporary one (removed on every exit path).
class WorkDirectory {
 public:
  explicit WorkDirectory(const std::optional<std::string>& keep_in) {
    if (keep_in) {
      path_ = *keep_in;
      std::filesystem::create_directories(path_);
      keep_ = true;
    } else {
      std::string pattern = (std::filesystem::temp_directory_path() / "ringsim-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
      path_ = pattern;
    }
  }
  ~WorkDirectory() {
    std::error_code ignored;
    if (!keep_) std::filesystem::remove_all(path_, ignored);
  }
  WorkDirectory(const WorkDirectory&) = delete;
  WorkDirectory& operator=(const WorkDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

std::string case_directory_name(std::size_t index, const SimulationCase& spec) {
  // Long placements ("8-8-...-8" over 64 nodes) would exceed file name limits.
  std::string placement = spec.placement.ranks_text();
  if (placement.size() > 32)
    placement = fmt::format("{}ranks-{}nodes", spec.placement.total_ranks(), spec.placement.ranks_per_node.size());
  return fmt::format("{:02}-{}-{}-{}", index + 1, placement, order_name(spec.placement.order), spec.algorithm);
}

void check_output_file(const std::string& option, const std::string& file) {
  auto dir = std::filesystem::path(file).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    throw InputError(fmt::format("{} {}: directory {} does not exist", option, file, dir.string()));
}

}  // namespace

int run_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "run", {"--json", "--out", "--jobs", "--model"}, {"--quiet"});
  if (args.has("--help")) {
    std::fputs(kRunUsage, stdout);
    for (const auto& info : kAlgorithmCatalog) fmt::print("  {:<18} {}\n", info.name, info.summary);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim run: expected exactly one SCENARIO.json");
  const int jobs = args.value("--jobs") ? positive_int_option("--jobs", *args.value("--jobs"))
                                        : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const bool quiet = args.has("--quiet");
  if (auto json = args.value("--json")) check_output_file("--json", *json);

  // Everything the user wrote is read and checked before any simulation starts.
  Scenario scenario = load_scenario(args.positional[0]);
  if (auto model = args.value("--model")) scenario.model = load_model_file(*model, scenario.model);
  const Platform platform = load_platform(scenario.topology);
  check_placements_fit(scenario, platform.layout);
  const SmpiTools tools = find_smpi_tools();

  WorkDirectory work(args.value("--out"));
  std::filesystem::path platform_file = platform.source;
  if (platform.generated_xml) {
    platform_file = work.path() / "platform.xml";
    write_file_atomically(platform_file, *platform.generated_xml);
  }

  std::vector<SimulationCase> cases;
  for (const auto& placement : scenario.placements)
    for (const auto& algorithm : scenario.algorithms) cases.push_back({placement, algorithm});
  std::vector<PreparedCase> prepared;
  std::vector<ChildCommand> commands;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    prepared.push_back(prepare_smpi_case(scenario, platform_file, platform.layout, cases[i],
                                         work.path() / case_directory_name(i, cases[i]), tools,
                                         args.value("--out").has_value()));
    commands.push_back(prepared.back().command);
  }

  if (!quiet)
    fmt::print(stderr, "ringsim: {} — {} case{}, {} size{}, {} at a time\n", scenario.name, cases.size(),
               cases.size() == 1 ? "" : "s", scenario.sizes.size(), scenario.sizes.size() == 1 ? "" : "s", jobs);
  std::vector<std::optional<CaseResult>> results(cases.size());
  std::vector<std::string> failures;
  std::size_t finished = 0;
  run_children(commands, jobs, [&](std::size_t index, const ChildOutcome& outcome) {
    ++finished;
    const std::string name = fmt::format("{} {}", cases[index].placement.label(), cases[index].algorithm);
    if (outcome.exit_status == 0) {
      try {
        results[index] = read_case_report(prepared[index], cases[index], scenario.sizes);
      } catch (const std::exception& e) {
        failures.push_back(fmt::format("{}: {}\n{}", name, e.what(), log_tail(prepared[index].command.log, 15)));
      }
    } else {
      failures.push_back(fmt::format("{}: smpirun exited with status {}; last lines of {}:\n{}", name,
                                     outcome.exit_status, prepared[index].command.log.string(),
                                     log_tail(prepared[index].command.log, 15)));
    }
    if (!quiet)
      fmt::print(stderr, "[{}/{}] {}: {} in {:.1f} s\n", finished, cases.size(), name,
                 results[index] ? "simulated" : "FAILED", outcome.wall_s);
  });
  if (!failures.empty()) {
    for (const auto& failure : failures) fmt::print(stderr, "ringsim: simulation failed: {}", failure);
    return 1;
  }

  std::vector<CaseResult> done;
  for (auto& result : results) done.push_back(std::move(*result));
  if (!scenario.question.empty()) fmt::print("# Question: {}\n", scenario.question);
  fmt::print("# Scenario {} on {}; model {}\n\n", scenario.name, scenario.topology.string(),
             scenario.model.to_json().dump());
  for (const auto& result : done) fmt::print("{}\n", case_table(result, scenario, platform.layout));
  fmt::print("{}", comparison_table(done));

  if (auto json = args.value("--json"))
    write_file_atomically(*json, results_json("simulated", scenario.name, scenario.model, done).dump(2) + "\n");

  long long wrong = 0;
  for (const auto& result : done)
    for (const auto& size : result.sizes) wrong += size.wrong.value_or(0);
  if (wrong > 0) {
    fmt::print(stderr, "ringsim: {} wrong elements: an algorithm produced an incorrect sum\n", wrong);
    return 1;
  }
  return 0;
}

}  // namespace ringsim
