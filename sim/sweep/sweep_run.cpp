#include "sweep_run.h"

#include "../cases/simulated_case.h"
#include "../analysis/variant_plan.h"
#include "../cases/case_jobs.h"
#include "../cases/work_directory.h"
#include "../results/results_document.h"
#include "../simulate/simulation.h"

#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

// One topology x variant as these cases need it: only their placements, planned once.
struct GroupRun {
  Scenario scenario;
  std::map<std::size_t, std::size_t> placement_of;  // the group's placement index -> index in scenario
  std::optional<VariantPlan> plan;
  PlatformFiles platform_files;
  std::vector<std::size_t> jobs;  // indices into the run's jobs
};

std::map<std::size_t, GroupRun> plan_groups(const SweepSpec& spec, const ExpandedSweep& sweep,
                                            const std::vector<Platform>& platforms,
                                            const std::vector<std::size_t>& cases, const WorkDirectory& work) {
  std::map<std::size_t, GroupRun> groups;
  for (std::size_t c : cases) {
    const SweepCase& one = sweep.cases.at(c);
    auto [it, fresh] = groups.try_emplace(one.group);
    GroupRun& group = it->second;
    if (fresh) {
      group.scenario = sweep.groups[one.group].scenario;
      group.scenario.placements.clear();
    }
    if (group.placement_of.emplace(one.placement, group.scenario.placements.size()).second)
      group.scenario.placements.push_back(sweep.groups[one.group].scenario.placements[one.placement]);
  }
  for (auto& [index, group] : groups) {
    const Platform& platform = platforms.at(sweep.groups[index].topology);
    group.plan = plan_variant(group.scenario, platform, spec.file.string());
    const auto dir = work.path() / fmt::format("group-{}", index);
    std::filesystem::create_directories(dir);
    group.platform_files = platform_files_of(*group.plan, platform, dir);
  }
  return groups;
}

// Cost models and closed forms per group, as `ringsim run` adds them to a variant's cases.
void add_group_cost_models(std::map<std::size_t, GroupRun>& groups, std::vector<std::optional<CaseResult>>& results) {
  for (auto& [index, group] : groups) {
    std::vector<CaseResult> part;
    for (std::size_t i : group.jobs) part.push_back(std::move(*results[i]));
    add_cost_models_by_part(part, *group.plan);
    for (std::size_t k = 0; k < group.jobs.size(); ++k) results[group.jobs[k]] = std::move(part[k]);
  }
}

// The results' rows of CASES (as `ringsim run --json` writes them), each with its case index and,
// when the sweep has several, its variant and topology.
std::vector<ResultRow> sweep_rows(const SweepSpec& spec, const ExpandedSweep& sweep, const std::vector<std::size_t>& cases,
                                  const std::vector<std::optional<CaseResult>>& results) {
  std::vector<ResultRow> rows;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const SweepGroup& group = sweep.groups[sweep.cases[cases[i]].group];
    for (ResultRow& row : result_rows({*results[i]}, spec.variants.empty() ? "" : group.variant)) {
      row.case_index = cases[i];
      if (spec.topologies.size() > 1) row.topology = spec.topologies[group.topology].string();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace

SweepCasesOutcome run_sweep_cases(const SweepSpec& spec, const ExpandedSweep& sweep, const std::vector<Platform>& platforms,
                                  const std::vector<std::size_t>& cases, int jobs,
                                  const std::function<void(bool ok)>& on_case_done) {
  const SmpiTools tools = find_smpi_tools();
  WorkDirectory work(std::nullopt);
  std::map<std::size_t, GroupRun> groups = plan_groups(spec, sweep, platforms, cases, work);

  std::vector<ChildCommand> commands;
  std::vector<SimulationCase> specs;
  std::vector<std::filesystem::path> reports;
  for (std::size_t c : cases) {
    const SweepCase& one = sweep.cases[c];
    GroupRun& group = groups.at(one.group);
    const std::string& algorithm = group.plan->scenario.algorithms.at(one.algorithm);
    const Scenario& scenario = plan_for_algorithm(*group.plan, algorithm).scenario;
    const PlacementSpec& placement = scenario.placements.at(group.placement_of.at(one.placement));
    const Platform& platform = platforms.at(sweep.groups[one.group].topology);
    const SimulationCase simulation =
        plan_simulated_case(scenario, placement, algorithm, platform.layout, scenario.collectives.at(one.collective));
    const PreparedCase prepared = prepare_case(scenario, group.platform_files.of(*group.plan, algorithm), simulation,
                                               work.path() / case_directory_name(c, simulation), tools, false);
    group.jobs.push_back(commands.size());
    commands.push_back(prepared.command);
    specs.push_back(simulation);
    reports.push_back(prepared.report);
  }

  std::vector<std::optional<CaseResult>> results(cases.size());
  SweepCasesOutcome outcome;
  run_children(commands, jobs, [&](std::size_t i, const ChildOutcome& child) {
    const std::string name = fmt::format("case {} ({} {})", cases[i], specs[i].placement.label(), algorithm_label(specs[i]));
    if (child.exit_status == 0) {
      try {
        results[i] = read_case_report(reports[i], specs[i], groups.at(sweep.cases[cases[i]].group).scenario.sizes);
      } catch (const std::exception& e) {
        outcome.failures.push_back(fmt::format("{}: {}\n{}", name, e.what(), log_tail(commands[i].log, 15)));
      }
    } else {
      outcome.failures.push_back(fmt::format("{}: {} exited with status {}; last lines of its log:\n{}", name,
                                             commands[i].argv.front(), child.exit_status, log_tail(commands[i].log, 15)));
    }
    on_case_done(results[i].has_value());
  });
  if (!outcome.failures.empty()) return outcome;

  add_group_cost_models(groups, results);
  outcome.rows = sweep_rows(spec, sweep, cases, results);
  return outcome;
}

double estimated_case_seconds(int ranks, const std::vector<std::uint64_t>& sizes, int calls_per_size) {
  // Measured on a 2-core machine under a load of ~9 (docs/sweeps.md): a case of 8 ranks
  // and one 64 KiB size takes 0.9 s (smpirun, platform library, the rank program's start), 32 ranks
  // 1.1 s; 4 GiB simulated on the wire (8 ranks x 64 MiB, or 32 x 16 MiB, 4 calls) adds 0.7-1.1 s.
  constexpr double kStartupS = 0.9;
  constexpr double kPerRankAndSizeS = 0.01;
  constexpr double kPerSimulatedGiBS = 0.2;
  double bytes = 0;
  for (std::uint64_t size : sizes) bytes += 2.0 * static_cast<double>(size) * ranks * calls_per_size;
  return kStartupS + kPerRankAndSizeS * ranks * static_cast<double>(sizes.size()) +
         kPerSimulatedGiBS * bytes / (1024.0 * 1024 * 1024);
}

}  // namespace ringsim
