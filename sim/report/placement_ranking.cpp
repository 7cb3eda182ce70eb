#include "placement_ranking.h"

#include "../common/units.h"
#include "plot_style.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <map>

namespace ringsim {
namespace {

using nlohmann::json;

// Times this close to the previous case's share its position: below the simulation's resolution.
constexpr double kTieWithin = 1e-3;

std::string group_title(const RankingGroup& group) {
  return group.variant.empty() ? fmt::format("N = {} ranks", group.ranks)
                               : fmt::format("N = {} ranks, {}", group.ranks, group.variant);
}

// "170 cases at 4MiB: 7.381 ms to 27.045 ms (3.66x); 21 tie fastest, 4 tie slowest".
std::string group_summary(const RankingGroup& group) {
  const auto& cases = group.cases;
  const auto tied_first = std::count_if(cases.begin(), cases.end(), [](const RankedCase& c) { return c.position == 1; });
  const auto tied_last = std::count_if(cases.begin(), cases.end(), [&](const RankedCase& c) { return c.position == cases.back().position; });
  std::string ties;
  if (tied_first > 1) ties += fmt::format("; {} tie fastest", tied_first);
  if (tied_last > 1 && cases.back().position != 1) ties += fmt::format("{} {} tie slowest", ties.empty() ? ";" : ",", tied_last);
  return fmt::format("{} {} at {}: {} to {} ({:.2f}x){}", cases.size(), cases.size() == 1 ? "case" : "cases",
                     format_bytes(group.bytes), format_time(cases.front().row->time_s), format_time(cases.back().row->time_s),
                     cases.back().slowdown, ties);
}

// "... 160 more cases, 7.381 ms to 26.1 ms": the cases a table leaves out between its two ends.
std::string skipped_summary(const RankingGroup& group, std::size_t from, std::size_t to) {
  return fmt::format("… {} more cases, {} to {}", to - from, format_time(group.cases[from].row->time_s),
                     format_time(group.cases[to - 1].row->time_s));
}

std::vector<std::string> ranked_cells(const RankedCase& ranked) {
  return {std::to_string(ranked.position), ranked.name, format_time(ranked.row->time_s), fmt::format("{:.2f}x", ranked.slowdown),
          ranked.bottleneck.empty() ? "-" : ranked.bottleneck};
}

ReportTable group_table(const RankingGroup& group) {
  ReportTable table{fmt::format("{}: {}", group_title(group), group_summary(group)),
                    {"rank", "case", "time", "× fastest", "bottleneck"},
                    {}};
  const auto listed = listed_cases(group);
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (i > 0 && listed[i] != listed[i - 1] + 1) table.rows.push_back({skipped_summary(group, listed[i - 1] + 1, listed[i])});
    table.rows.push_back(ranked_cells(group.cases[listed[i]]));
  }
  return table;
}

// One panel: every case's time at the group's size against its place in the ranking, a series per algorithm.
Panel ranking_panel(const RankingGroup& group) {
  std::map<std::string, json> series;  // algorithm -> trace
  std::vector<std::string> order;
  for (std::size_t i = 0; i < group.cases.size(); ++i) {
    const RankedCase& ranked = group.cases[i];
    auto [it, added] = series.try_emplace(ranked.row->algorithm);
    if (added) {
      const std::string colour = algorithm_colour(ranked.row->algorithm);
      it->second = {{"type", "scatter"}, {"mode", "markers"}, {"name", ranked.row->algorithm}, {"meta", ranked.row->algorithm}, {"x", json::array()},
                    {"y", json::array()}, {"text", json::array()}, {"marker", {{"color", colour}, {"size", 7}}},
                    {"hovertemplate", "%{text}<extra></extra>"}};
      order.push_back(ranked.row->algorithm);
    }
    it->second["x"].push_back(i + 1);
    it->second["y"].push_back(ranked.row->time_s * 1e3);
    it->second["text"].push_back(fmt::format("#{} {}: {} ({:.2f}x){}", ranked.position, ranked.name, format_time(ranked.row->time_s),
                                             ranked.slowdown, ranked.bottleneck.empty() ? "" : "<br>" + ranked.bottleneck));
  }
  Panel panel{fmt::format("{}: {}", group_title(group), group_summary(group)), json::array(),
              {{"title", {{"text", "place in the ranking (1 = fastest)"}}}, {"zeroline", false}},
              {{"title", {{"text", fmt::format("time at {} (ms)", format_bytes(group.bytes))}}}, {"rangemode", "tozero"}}};
  // The same legend order in every panel: the algorithm catalog's.
  std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) { return algorithm_rank(a) < algorithm_rank(b); });
  if (group.cases.size() <= 12) panel.xaxis["dtick"] = 1;  // whole places only
  for (const std::string& algorithm : order) panel.traces.push_back(series.at(algorithm));
  return panel;
}

}  // namespace

std::string format_time(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.1f} µs", seconds * 1e6);
}

std::vector<RankingGroup> rank_cases(const ResultsDocument& results, std::uint64_t bytes, const BottleneckNamer& bottleneck_of) {
  std::vector<RankingGroup> groups;
  for (const ResultRow& row : results.rows) {
    if (row.bytes != bytes) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const RankingGroup& g) { return g.ranks == row.ranks && g.variant == row.variant; });
    if (it == groups.end()) it = groups.insert(groups.end(), RankingGroup{row.variant, row.ranks, bytes, {}});
    it->cases.push_back({&row, case_legend_name(row), 0, 1, bottleneck_of ? bottleneck_of(row) : ""});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const RankingGroup& a, const RankingGroup& b) { return a.ranks < b.ranks; });
  for (RankingGroup& group : groups) {
    auto& cases = group.cases;
    std::stable_sort(cases.begin(), cases.end(), [](const RankedCase& a, const RankedCase& b) { return a.row->time_s < b.row->time_s; });
    for (std::size_t i = 0; i < cases.size(); ++i) {
      // Within 0.1% of the first case of the previous position (not of the previous case: small steps
      // would chain into one long tie).
      const bool tie = i > 0 && cases[i].row->time_s <= cases[cases[i - 1].position - 1].row->time_s * (1 + kTieWithin);
      cases[i].position = tie ? cases[i - 1].position : static_cast<int>(i + 1);
      cases[i].slowdown = cases.front().row->time_s > 0 ? cases[i].row->time_s / cases.front().row->time_s : 1;
    }
  }
  return groups;
}

std::vector<std::size_t> listed_cases(const RankingGroup& group) {
  const std::size_t n = group.cases.size();
  std::vector<std::size_t> listed;
  for (std::size_t i = 0; i < n; ++i)
    if (n <= 2 * kRankedAtEachEnd || i < kRankedAtEachEnd || i >= n - kRankedAtEachEnd) listed.push_back(i);
  return listed;
}

bool compares_placements(const std::vector<RankingGroup>& groups) {
  return std::any_of(groups.begin(), groups.end(), [](const RankingGroup& group) {
    return std::any_of(group.cases.begin(), group.cases.end(), [&](const RankedCase& c) {
      return c.row->placement != group.cases.front().row->placement || c.row->order != group.cases.front().row->order;
    });
  });
}

std::string ranking_text(const std::vector<RankingGroup>& groups, const std::string& bottleneck_note) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "# Ranking of the cases, fastest first, per N and variant: the {} fastest and {} slowest of each. {}\n",
                 kRankedAtEachEnd, kRankedAtEachEnd, bottleneck_note);
  for (const RankingGroup& group : groups) {
    const ReportTable table = group_table(group);
    fmt::format_to(it, "# {}\n#{:>5}  {:<26} {:>12} {:>10}  {}\n", table.caption, "rank", "case", "time", "x fastest", "bottleneck");
    for (const auto& cells : table.rows) {
      if (cells.size() == 1) fmt::format_to(it, "{:>6}  {}\n", "", cells[0]);
      else fmt::format_to(it, "{:>6}  {:<26} {:>12} {:>10}  {}\n", cells[0], cells[1], cells[2], cells[3], cells[4]);
    }
  }
  return fmt::to_string(out);
}

ReportSection ranking_section(const std::vector<RankingGroup>& groups, const std::string& bottleneck_note) {
  ReportSection section{"plot-ranking", "Ranking of the cases", "", std::nullopt};
  if (!compares_placements(groups)) {
    section.explanation = "Left out: every number of ranks (and variant) has one placement, so there are no placements "
                          "to rank; the plots below compare the algorithms.";
    return section;
  }
  std::vector<Panel> panels;
  for (const RankingGroup& group : groups) {
    panels.push_back(ranking_panel(group));
    section.tables.push_back(group_table(group));
  }
  section.figure = stacked_panels("Every case's time, fastest first", panels);
  section.explanation = fmt::format(
      "Each case's median time at one size against its place in the ranking, a panel per number of ranks N "
      "(and model variant), colour by algorithm (hover for the case and its bottleneck). A flat run of "
      "markers is a set of cases that tie: placements whose ring crosses the same bottleneck equally often; "
      "a step is a placement that loads one link with more ring edges. The tables list the {} fastest and {} "
      "slowest of each panel; cases within 0.1% share a rank; cases that tie draw one line over another in the "
      "plots below. {}",
      kRankedAtEachEnd, kRankedAtEachEnd, bottleneck_note);
  return section;
}

}  // namespace ringsim
