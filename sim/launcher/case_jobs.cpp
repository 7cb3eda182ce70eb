#include "case_jobs.h"

#include "../common/input_error.h"
#include "../common/units.h"

#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>

namespace ringsim {

std::string case_directory_name(std::size_t index, const SimulationCase& spec) {
  // Long placements ("8-8-...-8" over 64 nodes) would exceed file name limits.
  std::string placement = spec.placement.ranks_text();
  if (placement.size() > 32)
    placement = fmt::format("{}ranks-{}nodes", spec.placement.total_ranks(), spec.placement.ranks_per_node.size());
  return fmt::format("{:02}-{}-{}-{}", index + 1, placement, order_name(spec.placement.order), spec.algorithm);
}

std::string_view plural(std::size_t count, std::string_view one, std::string_view many) {
  return count == 1 ? one : many;
}

double progress_after_s() {
  const char* text = std::getenv("RINGSIM_PROGRESS_AFTER");
  if (text == nullptr) return 3.0;
  double seconds = 0;
  const char* end = text + std::char_traits<char>::length(text);
  if (auto [stop, ec] = std::from_chars(text, end, seconds); ec != std::errc() || stop != end || seconds < 0)
    throw InputError(fmt::format("RINGSIM_PROGRESS_AFTER={}: expected a number of seconds >= 0", text));
  return seconds;
}

namespace {

std::string case_name(const CaseJob& job) { return fmt::format("{} {}", job.spec.placement.label(), job.spec.algorithm); }

// For lines printed every second: "8-8-...-8" over 32 nodes would take most of the line.
std::string short_case_name(const CaseJob& job) {
  const PlacementSpec& placement = job.spec.placement;
  if (placement.ranks_text().size() <= 32) return case_name(job);
  return fmt::format("{} ranks on {} nodes {} {}", placement.total_ranks(), placement.ranks_per_node.size(),
                     order_name(placement.order), job.spec.algorithm);
}

// "call 3 of 12 (64MiB, size 2 of 3), step 120 of 510, simulated 0.0532 s, 850 steps/s" from the
// rank's progress file; empty when there is none yet or it cannot be read (progress is best effort).
std::string progress_text(const std::filesystem::path& file, const std::vector<std::uint64_t>& sizes) {
  std::ifstream in(file);
  const nlohmann::json progress = nlohmann::json::parse(in, nullptr, false);
  if (progress.is_discarded() || !progress.is_object()) return "";
  try {
    const auto size_index = progress.at("size_index").get<std::size_t>();
    std::string text = fmt::format("call {} of {}", progress.at("call").get<std::uint64_t>(),
                                   progress.at("calls").get<std::uint64_t>());
    if (size_index < sizes.size())
      text += fmt::format(" ({}, size {} of {})", format_bytes(sizes[size_index]), size_index + 1, sizes.size());
    text += fmt::format(", step {}", progress.at("step").get<std::uint64_t>());
    if (!progress.at("steps_in_call").is_null()) text += fmt::format(" of {}", progress.at("steps_in_call").get<std::uint64_t>());
    if (!progress.at("simulated_s").is_null()) text += fmt::format(", simulated {:.6g} s", progress.at("simulated_s").get<double>());
    if (!progress.at("steps_per_s").is_null()) text += fmt::format(", {:.0f} steps/s", progress.at("steps_per_s").get<double>());
    return text;
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

}  // namespace

std::optional<std::vector<CaseResult>> run_case_jobs(const std::vector<CaseJob>& jobs,
                                                     const std::vector<std::uint64_t>& sizes, int parallel,
                                                     bool quiet, std::string_view done_word) {
  std::vector<ChildCommand> commands;
  for (const auto& job : jobs) commands.push_back(job.command);
  std::vector<std::optional<CaseResult>> results(jobs.size());
  std::vector<std::string> failures;
  std::size_t finished = 0;
  const double relay_after_s = progress_after_s();
  std::map<std::size_t, std::string> last_relayed;  // by job index: the progress text printed last
  auto relay_progress = [&](const std::vector<RunningChild>& running) {
    for (const RunningChild& child : running) {
      const CaseJob& job = jobs[child.index];
      if (job.progress.empty() || child.wall_s < relay_after_s) continue;
      const std::string text = progress_text(job.progress, sizes);
      if (text.empty() || text == last_relayed[child.index]) continue;
      fmt::print(stderr, "[running {:.0f} s] {}: {}\n", child.wall_s, short_case_name(job), text);
      last_relayed[child.index] = text;
    }
  };
  const auto on_done = [&](std::size_t index, const ChildOutcome& outcome) {
    ++finished;
    const CaseJob& job = jobs[index];
    const std::string name = case_name(job);
    if (outcome.exit_status == 0) {
      try {
        results[index] = read_case_report(job.report, job.spec, sizes);
      } catch (const std::exception& e) {
        failures.push_back(fmt::format("{}: {}\n{}", name, e.what(), log_tail(job.command.log, 15)));
      }
    } else {
      failures.push_back(fmt::format("{}: {} exited with status {}; last lines of {}:\n{}", name,
                                     job.command.argv.front(), outcome.exit_status, job.command.log.string(),
                                     log_tail(job.command.log, 15)));
    }
    if (!quiet)
      fmt::print(stderr, "[{}/{}] {}: {} in {:.1f} s\n", finished, jobs.size(), name,
                 results[index] ? done_word : "FAILED", outcome.wall_s);
  };
  if (quiet)
    run_children(commands, parallel, on_done);
  else
    run_children(commands, parallel, on_done, relay_progress);
  if (!failures.empty()) {
    for (const auto& failure : failures) fmt::print(stderr, "ringsim: case failed: {}", failure);
    return std::nullopt;
  }
  std::vector<CaseResult> done;
  for (auto& result : results) done.push_back(std::move(*result));
  return done;
}

}  // namespace ringsim
