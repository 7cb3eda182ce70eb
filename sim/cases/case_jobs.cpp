#include "case_jobs.h"

#include "case_progress.h"

#include <fmt/format.h>
#include <map>

namespace ringsim {

std::string case_directory_name(std::size_t index, const SimulationCase& spec) {
  return fmt::format("{:02}-{}", index + 1, case_name(spec, CaseNaming::directory));
}

std::string_view plural(std::size_t count, std::string_view one, std::string_view many) {
  return count == 1 ? one : many;
}

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
  const auto sizes_of = [&](const CaseJob& job) -> const std::vector<std::uint64_t>& { return job.sizes.empty() ? sizes : job.sizes; };
  auto relay_progress = [&](const std::vector<RunningChild>& running) {
    for (const RunningChild& child : running) {
      const CaseJob& job = jobs[child.index];
      if (job.progress.empty() || child.wall_s < relay_after_s) continue;
      const std::string text = read_case_progress(job.progress, sizes_of(job));
      if (text.empty() || text == last_relayed[child.index]) continue;
      fmt::print(stderr, "[running {:.0f} s] {}: {}\n", child.wall_s, case_name(job.spec, CaseNaming::progress), text);
      last_relayed[child.index] = text;
    }
  };
  const auto on_done = [&](std::size_t index, const ChildOutcome& outcome) {
    ++finished;
    const CaseJob& job = jobs[index];
    std::string name = fmt::format("{} {}", job.spec.placement.label(), algorithm_label(job.spec));
    const std::size_t whole = job.case_sizes != 0 ? job.case_sizes : sizes.size();
    if (!job.sizes.empty() && job.sizes.size() != whole) name += fmt::format(" ({} of {} sizes)", job.sizes.size(), whole);
    if (outcome.exit_status == 0) {
      try {
        results[index] = read_case_report(job.report, job.spec, sizes_of(job));
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
