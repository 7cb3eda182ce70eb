// Plot a of the report: time and busbw against size, one panel per variant and N, each with at most
// kMaxSeriesPerPanel series: every case when they fit, else the fastest and slowest few and a band
// that spans the others.
#include "plot_style.h"
#include "report_figures.h"
#include "scenario_answer.h"

#include "../common/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

using nlohmann::json;

// Of a panel with more cases than fit, this many fastest and this many slowest are drawn (and a band).
constexpr std::size_t kShownAtEachEnd = 4;

constexpr const char* kTimeVsSizeColours[] = {"colour is the algorithm, the same in every plot",
                                               "colour is the case, as in the chart above"};
constexpr const char* kTimeVsSize =
    "Median time of the slowest rank per message size (log-log), one panel per number of ranks N (and model "
    "variant); {}. Small sizes are latency-bound: the ring's "
    "2(N−1) steps each pay the route's latency, so the lines are flat and close. Large sizes are "
    "bandwidth-bound: time grows in proportion to S, and the vertical gap between two lines is the ratio of "
    "their bottleneck bandwidths.";
constexpr const char* kBusbwVsSize =
    "Bus bandwidth = S/t · 2(N−1)/N (nccl-tests' definition), the rate at which a bandwidth-optimal allreduce "
    "would have to drive each rank's busiest link. It rises with size as the latency is amortised and levels "
    "off near the rate of the bottleneck link (the NIC, for a ring across nodes). A line that levels off at "
    "1/2 or 1/3 of another shares its bottleneck among 2 or 3 ring edges (cyclic placements).";
constexpr const char* kSelection =
    " A panel with more than 10 cases shows the 4 fastest (solid) and the 4 slowest (dashed) at the largest "
    "size, named in the legend; the grey band spans the other cases.";

// One case's rows, by size.
struct CaseLine {
  std::string name;
  std::string algorithm;
  std::vector<const ResultRow*> rows;  // ascending size
  double largest_size_time_s() const { return rows.back()->time_s; }
};

// A panel's cases: rows of one variant and N, grouped per case in order of first appearance.
struct PanelCases {
  std::string variant;
  int ranks = 0;
  std::vector<CaseLine> cases;
};

std::vector<PanelCases> panel_cases(const ResultsDocument& results) {
  std::map<std::pair<std::string, int>, std::size_t> index_of_panel;
  std::vector<PanelCases> panels;
  std::vector<std::map<std::string, std::size_t>> index_of_case;
  for (const ResultRow& row : results.rows) {
    auto [it, added] = index_of_panel.try_emplace({row.variant, row.ranks}, panels.size());
    if (added) panels.push_back({row.variant, row.ranks, {}}), index_of_case.emplace_back();
    PanelCases& panel = panels[it->second];
    const std::string name = case_legend_name(row);  // the panel title says N and the variant
    auto [c, new_case] = index_of_case[it->second].try_emplace(name, panel.cases.size());
    if (new_case) panel.cases.push_back({name, row.algorithm, {}});
    panel.cases[c->second].rows.push_back(&row);
  }
  std::sort(panels.begin(), panels.end(), [](const PanelCases& a, const PanelCases& b) { return a.ranks < b.ranks; });
  for (PanelCases& panel : panels)
    for (CaseLine& line : panel.cases)
      std::stable_sort(line.rows.begin(), line.rows.end(), [](auto* a, auto* b) { return a->bytes < b->bytes; });
  return panels;
}

// The cases a panel draws (fastest first, then slowest), and the rest, which the band spans.
std::pair<std::vector<const CaseLine*>, std::vector<const CaseLine*>> drawn_and_rest(const PanelCases& panel) {
  std::vector<const CaseLine*> all;
  for (const CaseLine& line : panel.cases) all.push_back(&line);
  if (all.size() <= kMaxSeriesPerPanel) return {all, {}};
  std::stable_sort(all.begin(), all.end(), [](auto* a, auto* b) { return a->largest_size_time_s() < b->largest_size_time_s(); });
  std::vector<const CaseLine*> drawn(all.begin(), all.begin() + kShownAtEachEnd);
  drawn.insert(drawn.end(), all.end() - kShownAtEachEnd, all.end());
  return {drawn, std::vector<const CaseLine*>(all.begin() + kShownAtEachEnd, all.end() - kShownAtEachEnd)};
}

// VALUE of a row: its time in ms or its busbw in GB/s.
using RowValue = double (*)(const ResultRow&);
double time_ms(const ResultRow& row) { return row.time_s * 1e3; }
double busbw(const ResultRow& row) { return row.busbw_GBps; }

json case_trace(const CaseLine& line, RowValue value, const std::string& colour, std::size_t same_colour_index, bool slow_end) {
  json x = json::array(), y = json::array();
  for (const ResultRow* row : line.rows) x.push_back(row->bytes), y.push_back(value(*row));
  return {{"type", "scatter"},
          {"mode", "lines+markers"},
          {"name", line.name},
          {"meta", line.algorithm},  // which algorithm the colour stands for (checked by tests)
          {"x", x},
          {"y", y},
          {"line", {{"color", colour}, {"dash", slow_end ? "dash" : "solid"}, {"width", 2}}},
          {"marker", {{"color", colour}, {"size", 8}, {"symbol", line_symbol(same_colour_index)}}},
          {"hovertemplate", value == time_ms ? "%{y:.4g} ms<extra>%{fullData.name}</extra>"
                                             : "%{y:.3f} GB/s<extra>%{fullData.name}</extra>"}};
}

// One filled trace from the lowest to the highest value of REST at each size.
json band_trace(const std::vector<const CaseLine*>& rest, RowValue value) {
  std::map<std::uint64_t, std::pair<double, double>> range;
  for (const CaseLine* line : rest)
    for (const ResultRow* row : line->rows) {
      auto [it, added] = range.try_emplace(row->bytes, value(*row), value(*row));
      it->second = {std::min(it->second.first, value(*row)), std::max(it->second.second, value(*row))};
    }
  json x = json::array(), y = json::array();
  for (const auto& [bytes, lo_hi] : range) x.push_back(bytes), y.push_back(lo_hi.first);
  for (auto it = range.rbegin(); it != range.rend(); ++it) x.push_back(it->first), y.push_back(it->second.second);
  return {{"type", "scatter"},        {"mode", "lines"}, {"name", fmt::format("{} other cases (range)", rest.size())},
          {"x", x},                   {"y", y},          {"fill", "toself"},
          {"fillcolor", "rgba(120,120,120,0.22)"},       {"line", {{"color", "rgba(120,120,120,0.5)"}, {"width", 1}}},
          {"hoverinfo", "skip"}};
}

std::string panel_title(const PanelCases& panel) {
  const std::string cases = fmt::format("{} {}", panel.cases.size(), panel.cases.size() == 1 ? "case" : "cases");
  return panel.variant.empty() ? fmt::format("N = {} ranks ({})", panel.ranks, cases)
                               : fmt::format("N = {} ranks, {} ({})", panel.ranks, panel.variant, cases);
}

// With COLOUR_PER_CASE (one algorithm in the results), a case's colour is its place in the panel.
Panel size_panel(const PanelCases& cases, RowValue value, const json& xaxis, const json& yaxis, bool colour_per_case) {
  Panel panel{panel_title(cases), json::array(), xaxis, yaxis};
  const auto [drawn, rest] = drawn_and_rest(cases);
  std::map<std::string, std::size_t> lines_of_algorithm;
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const bool slow_end = !rest.empty() && i >= kShownAtEachEnd;
    if (colour_per_case)
      panel.traces.push_back(case_trace(*drawn[i], value, case_colour(drawn[i] - cases.cases.data()), 0, slow_end));
    else
      panel.traces.push_back(case_trace(*drawn[i], value, algorithm_colour(drawn[i]->algorithm),
                                        lines_of_algorithm[drawn[i]->algorithm]++, slow_end));
  }
  if (!rest.empty()) panel.traces.push_back(band_trace(rest, value));
  return panel;
}

json time_axis_of(const PanelCases& cases) {
  double lowest = 0, highest = 0;
  for (const CaseLine& line : cases.cases)
    for (const ResultRow* row : line.rows)
      lowest = lowest == 0 ? row->time_s : std::min(lowest, row->time_s), highest = std::max(highest, row->time_s);
  return log_time_axis(lowest > 0 ? lowest : 1e-6, highest > 0 ? highest : 1e-6);
}

}  // namespace

std::vector<ReportSection> size_sections(const ResultsDocument& results) {
  std::set<std::uint64_t> sizes;
  for (const ResultRow& row : results.rows) sizes.insert(row.bytes);
  if (sizes.size() < 2)
    return {{"plot-time-vs-size", "Time against message size",
             fmt::format("Left out: the results hold one size ({}), so there is nothing to draw against size; give "
                         "the scenario several \"sizes\".",
                         format_bytes(*sizes.begin())),
             std::nullopt}};
  const json xaxis = size_axis(*sizes.begin(), *sizes.rbegin());
  const json busbw_axis = {{"title", {{"text", "busbw (GB/s)"}}}, {"zeroline", false}, {"rangemode", "tozero"}};
  const bool colour_per_case = compares_one_algorithm(results);
  std::vector<Panel> time_panels, busbw_panels;
  bool selected = false;
  for (const PanelCases& cases : panel_cases(results)) {
    time_panels.push_back(size_panel(cases, time_ms, xaxis, time_axis_of(cases), colour_per_case));
    busbw_panels.push_back(size_panel(cases, busbw, xaxis, busbw_axis, colour_per_case));
    selected = selected || cases.cases.size() > kMaxSeriesPerPanel;
  }
  const std::string selection = selected ? kSelection : "";
  return {{"plot-time-vs-size", "Time against message size",
           fmt::format(fmt::runtime(kTimeVsSize), kTimeVsSizeColours[colour_per_case]) + selection,
           stacked_panels("Median time of the slowest rank", time_panels)},
          {"plot-busbw-vs-size", "Bus bandwidth against message size", kBusbwVsSize + selection,
           stacked_panels("Bus bandwidth", busbw_panels)}};
}

}  // namespace ringsim
