// Plots b and c of the report: time and per-rank traffic against N, in panels of at most
// kMaxSeriesPerPanel series (an algorithm's points and closed form, or its sent and received bytes).
#include "plot_style.h"
#include "report_figures.h"

#include "../analysis/algorithm_costs.h"
#include "../common/input_error.h"
#include "../common/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

using nlohmann::json;

// Keys in order of first appearance (the scenario's case order), each with its entries.
template <typename KeyOf>
std::vector<std::pair<std::string, std::vector<const ResultRow*>>> group(const std::vector<const ResultRow*>& entries,
                                                                           KeyOf key_of) {
  std::vector<std::pair<std::string, std::vector<const ResultRow*>>> groups;
  for (const ResultRow* entry : entries) {
    const std::string key = key_of(*entry);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
    it->second.push_back(entry);
  }
  return groups;
}

std::vector<const ResultRow*> all_entries(const ResultsDocument& results) {
  std::vector<const ResultRow*> entries;
  for (const auto& entry : results.rows) entries.push_back(&entry);
  return entries;
}

json axis(const std::string& title, bool log) {
  json axis = {{"title", {{"text", title}}}, {"zeroline", false}};
  if (log) axis["type"] = "log";
  return axis;
}

// The N axis: ticks at the rank counts present when they are few, else whole numbers only.
json ranks_axis(const std::set<int>& ranks) {
  json ranks_axis = axis("ranks N", false);
  if (ranks.size() <= 12) ranks_axis["tickvals"] = ranks, ranks_axis["tickmode"] = "array";
  else ranks_axis["tickformat"] = "d";
  return ranks_axis;
}

// Series of one panel: an algorithm's points and its closed-form line take two.
constexpr std::size_t kAlgorithmsPerPanel = kMaxSeriesPerPanel / 2;
// Sent and received per algorithm, and the 2(N-1)/N reference line.
constexpr std::size_t kTrafficAlgorithmsPerPanel = (kMaxSeriesPerPanel - 1) / 2;

// "ring, rabenseifner and 3 more": the series a panel holds.
std::string panel_title(const std::vector<std::string>& names) {
  if (names.size() <= 3) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, {} and {} more", names[0], names[1], names.size() - 2);
}

// The panels of SERIES cut into groups of PER_PANEL, each drawn by DRAW(series index, panel).
template <typename Series, typename Draw>
std::vector<Panel> panels_of(const Series& series, std::size_t per_panel, const json& xaxis, const json& yaxis, Draw draw) {
  std::vector<Panel> panels;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (i % per_panel == 0) panels.push_back({"", json::array(), xaxis, yaxis}), names.clear();
    names.push_back(series[i].first);
    draw(i, panels.back());
    panels.back().title = panel_title(names);
  }
  return panels;
}

// The I-th series' colour and marker: its algorithm's colour; series of one algorithm (orders,
// variants) apart by their marker symbol.
struct SeriesStyle {
  std::string colour, symbol;
  std::string algorithm;  // "" for a reference line
};
template <typename Series>
std::vector<SeriesStyle> series_styles(const Series& series) {
  std::vector<SeriesStyle> styles;
  std::map<std::string, std::size_t> seen;
  for (const auto& [name, entries] : series) {
    const std::string& algorithm = entries.front()->algorithm;
    styles.push_back({algorithm_colour(algorithm), line_symbol(seen[algorithm]++), algorithm});
  }
  return styles;
}

json line_trace(const std::string& name, const json& x, const json& y, const SeriesStyle& style, const char* mode,
                const char* dash = "solid") {
  json trace = {{"type", "scatter"}, {"mode", mode},   {"name", name},
                {"x", x},            {"y", y},         {"line", {{"color", style.colour}, {"dash", dash}}},
                {"marker", {{"color", style.colour}, {"size", 8}, {"symbol", style.symbol}}}};
  if (!style.algorithm.empty()) trace["meta"] = style.algorithm;  // which algorithm the colour stands for
  return trace;
}

std::set<int> rank_counts(const std::vector<const ResultRow*>& entries) {
  std::set<int> ranks;
  for (const ResultRow* entry : entries) ranks.insert(entry->ranks);
  return ranks;
}

// "ring", or "ring (cyclic)" when the results mix rank orders, whose times differ at equal N; and
// " [VARIANT]" for an entry of a scenario variant (another model).
std::string algorithm_series(const ResultRow& entry, bool several_orders) {
  std::string name = several_orders ? fmt::format("{} ({})", entry.algorithm, entry.order) : entry.algorithm;
  return entry.variant.empty() ? name : fmt::format("{} [{}]", name, entry.variant);
}

bool same_model(const CostParameters& a, const CostParameters& b) {
  return a.alpha_s == b.alpha_s && a.beta_s_per_byte == b.beta_s_per_byte && a.gamma_s_per_byte == b.gamma_s_per_byte;
}

// The closed form of one entry: its own closed_form_s, else the formula under its cost model.
std::optional<double> closed_form_of(const ResultRow& entry) {
  if (entry.closed_form_s) return entry.closed_form_s;
  if (entry.cost_model) return closed_form_time_s(entry.algorithm, entry.ranks, entry.bytes, *entry.cost_model);
  return std::nullopt;
}

// The closed-form line of one series, or nullopt when the entries carry nothing to draw it from.
// When every entry has the same cost model the formula is drawn at every N of the plot's range;
// otherwise (placements with other routes) the line joins each entry's own closed form.
std::optional<json> closed_form_line(const std::string& name, const std::vector<const ResultRow*>& entries,
                                     std::uint64_t bytes, int min_ranks, int max_ranks, const SeriesStyle& style) {
  json x = json::array(), y = json::array();
  const auto& first = *entries.front();
  const bool one_model = first.cost_model && std::all_of(entries.begin(), entries.end(), [&](const ResultRow* e) {
                           return e->cost_model && same_model(*e->cost_model, *first.cost_model);
                         });
  if (one_model) {
    const int stride = std::max(1, (max_ranks - min_ranks) / 200);
    for (int n = min_ranks; n <= max_ranks; n += stride)
      if (auto t = closed_form_time_s(first.algorithm, n, bytes, *first.cost_model)) x.push_back(n), y.push_back(*t * 1e3);
  }
  if (x.empty()) {
    auto sorted = entries;
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->ranks < b->ranks; });
    for (const ResultRow* entry : sorted)
      if (auto t = closed_form_of(*entry)) x.push_back(entry->ranks), y.push_back(*t * 1e3);
  }
  if (x.empty()) return std::nullopt;
  json trace = line_trace(name + " closed form", x, y, style, one_model ? "lines" : "markers", "dash");
  // Placements with routes of their own: a short horizontal mark per placement, not a line that
  // zigzags up and down at each N.
  if (!one_model) trace["marker"] = {{"color", style.colour}, {"size", 16}, {"symbol", "line-ew-open"}, {"line", {{"width", 2}}}};
  trace["hovertemplate"] = "N=%{x}: %{y:.4g} ms (closed form)<extra></extra>";
  return trace;
}

ReportSection time_vs_ranks(const std::vector<const ResultRow*>& at_size, std::uint64_t bytes) {
  ReportSection section{"plot-time-vs-ranks", "Time against the number of ranks", "", std::nullopt};
  const auto ranks = rank_counts(at_size);
  const std::set<std::string> orders = [&] {
    std::set<std::string> o;
    for (auto* e : at_size) o.insert(e->order);
    return o;
  }();
  bool any_closed_form = false;
  const auto series = group(at_size, [&](const ResultRow& e) { return algorithm_series(e, orders.size() > 1); });
  const auto styles = series_styles(series);
  const auto panels = panels_of(series, kAlgorithmsPerPanel, ranks_axis(ranks), axis("time (ms)", false),
                                [&](std::size_t i, Panel& panel) {
    const auto& [name, entries] = series[i];
    json x = json::array(), y = json::array(), text = json::array();
    for (const ResultRow* e : entries)
      x.push_back(e->ranks), y.push_back(e->time_s * 1e3), text.push_back(fmt::format("{} {}", e->placement, e->order));
    json points = line_trace(name + " simulated", x, y, styles[i], "markers");
    points["text"] = text;
    points["hovertemplate"] = "%{text}, N=%{x}: %{y:.4g} ms<extra></extra>";
    panel.traces.push_back(points);
    if (auto line = closed_form_line(name, entries, bytes, *ranks.begin(), *ranks.rbegin(), styles[i]))
      panel.traces.push_back(*line), any_closed_form = true;
  });
  section.figure = stacked_panels(fmt::format("Time at S = {} against N", format_bytes(bytes)), panels);
  section.explanation = fmt::format(
      "Markers: simulated median time of the slowest rank at S = {} for each rank count N (hover for the "
      "placement). {} The ring's time tends to 2·S·β as N grows, because its bandwidth term 2(N−1)/N·S·β "
      "barely grows while only the latency term 2(N−1)·α grows with N; an algorithm whose busiest rank moves "
      "(N−1)·S grows linearly in N at large sizes. A marker far from its line is where the simulated network "
      "departs from the cost model: links shared by several flows, contention at a switch.",
      format_bytes(bytes),
      any_closed_form ? "Dashed lines: each algorithm's closed form (α-β-γ cost model of the results); short bars "
                        "where placements have cost models of their own, one per placement."
                      : "No closed-form line: the results carry no closed_form_s or cost_model.");
  return section;
}

ReportSection traffic_vs_ranks(const std::vector<const ResultRow*>& at_size, std::uint64_t bytes) {
  ReportSection section{"plot-traffic-vs-ranks", "Per-rank traffic against the number of ranks", "", std::nullopt};
  std::vector<const ResultRow*> counted;
  for (const ResultRow* e : at_size)
    if (e->traffic) counted.push_back(e);
  if (counted.empty()) {
    section.explanation = "Left out: the results carry no per-rank traffic counts (\"traffic\"), either because "
                          "they come from a ringsim without traffic counters or because every algorithm is "
                          "\"mpi\", whose traffic the MPI library does not reveal.";
    return section;
  }
  const auto ranks = rank_counts(counted);
  if (ranks.size() < 2) {
    section.explanation = fmt::format("Left out: every result with traffic counts at {} has N = {}; traffic "
                                      "against N needs at least two rank counts.",
                                      format_bytes(bytes), *ranks.begin());
    return section;
  }
  const auto series = group(counted, [](const ResultRow& e) { return algorithm_series(e, false); });
  const auto styles = series_styles(series);
  json x = json::array(), optimum = json::array();
  for (int n = *ranks.begin(); n <= *ranks.rbegin(); n += std::max(1, (*ranks.rbegin() - *ranks.begin()) / 200))
    x.push_back(n), optimum.push_back(2.0 * (n - 1) / n);
  const json reference = line_trace("2(N−1)/N (ring, bandwidth-optimal)", x, optimum, {"#999999", "circle", ""}, "lines", "dash");
  auto panels = panels_of(series, kTrafficAlgorithmsPerPanel, ranks_axis(ranks),
                          axis("bytes per rank, in units of S", false), [&](std::size_t i, Panel& panel) {
    std::map<int, std::pair<double, double>> most;  // N -> (sent, received) in units of S, max over placements
    for (const ResultRow* e : series[i].second) {
      auto& [sent, received] = most[e->ranks];
      sent = std::max(sent, static_cast<double>(e->traffic->max_rank_sent_bytes) / static_cast<double>(e->bytes));
      received = std::max(received, static_cast<double>(e->traffic->max_rank_recv_bytes) / static_cast<double>(e->bytes));
    }
    json n = json::array(), sent = json::array(), received = json::array();
    for (const auto& [r, values] : most) n.push_back(r), sent.push_back(values.first), received.push_back(values.second);
    panel.traces.push_back(line_trace(series[i].first + " sent", n, sent, styles[i], "lines+markers"));
    panel.traces.push_back(line_trace(series[i].first + " received", n, received, styles[i], "lines+markers", "dot"));
  });
  for (Panel& panel : panels) panel.traces.push_back(reference);
  section.figure = stacked_panels(fmt::format("Most bytes one rank sends and receives, at S = {}", format_bytes(bytes)), panels);
  section.explanation =
      "The most bytes any one rank sends (solid) and receives (dotted) in one allreduce, in units of the message "
      "size S, for each algorithm. The ring's per-rank traffic stays at 2(N−1)/N·S (grey dashes: below 2·S for "
      "every N), which is optimal: every rank must send its (N−1)/N·S share out and get the rest in. A parameter "
      "server's busiest rank (the server) grows as (N−1)·S, so its time grows with N however fast the network is.";
  return section;
}

}  // namespace

namespace {

// The row's case named as NAMING names it. Rows of ringsim's writer name a known placement and order;
// anything else is shown as written.
std::string row_case_name(const ResultRow& row, CaseNaming naming) {
  const auto counts = parse_rank_counts(row.placement);
  const auto order = parse_rank_order(row.order);
  if (!counts || !order) return fmt::format("{} {} {}", row.placement, row.order, row.algorithm);
  SimulationCase spec;
  spec.placement.ranks_per_node = *counts;
  spec.placement.order = *order;
  spec.algorithm = row.algorithm;
  spec.collective = find_collective(row.collective).value_or(Collective::all_reduce);  // checked when read
  return case_name(spec, naming);
}

}  // namespace

std::string case_legend_name(const ResultRow& row) { return row_case_name(row, CaseNaming::legend); }
std::string case_finding_name(const ResultRow& row) { return row_case_name(row, CaseNaming::finding); }

std::string case_label(const ResultRow& row) {
  const std::string label = fmt::format("{} ({} ranks)", case_legend_name(row), row.ranks);
  return row.variant.empty() ? label : fmt::format("{} [{}]", label, row.variant);
}

std::optional<std::uint64_t> scaling_size(const ResultsDocument& results, std::optional<std::uint64_t> size,
                                          const std::string& file) {
  std::map<int, std::set<std::uint64_t>> sizes_of_ranks;
  for (const auto& entry : results.rows) sizes_of_ranks[entry.ranks].insert(entry.bytes);
  if (size) {
    for (const auto& entry : results.rows)
      if (entry.bytes == *size) return size;
    throw InputError(fmt::format("{}: no result has size {} (--size)", file, format_bytes(*size)));
  }
  std::set<std::uint64_t> common = sizes_of_ranks.begin()->second;
  for (const auto& [ranks, sizes] : sizes_of_ranks) {
    std::set<std::uint64_t> kept;
    std::set_intersection(common.begin(), common.end(), sizes.begin(), sizes.end(), std::inserter(kept, kept.end()));
    common = std::move(kept);
  }
  if (common.empty()) return std::nullopt;
  return *common.rbegin();
}

std::vector<ReportSection> scaling_sections(const ResultsDocument& results, std::optional<std::uint64_t> size) {
  if (!size) {
    return {{"plot-time-vs-ranks", "Time against the number of ranks",
             "Left out: no message size is present for every rank count; choose one with --size.", std::nullopt}};
  }
  std::vector<const ResultRow*> at_size;
  for (const ResultRow* e : all_entries(results))
    if (e->bytes == *size) at_size.push_back(e);
  const auto ranks = rank_counts(at_size);
  if (ranks.size() < 2) {
    return {{"plot-time-vs-ranks", "Time and per-rank traffic against the number of ranks",
             fmt::format("Left out: every result at {} has N = {} ranks; time and traffic against N need at least "
                         "two rank counts (add placements with other rank counts to the scenario).",
                         format_bytes(*size), *ranks.begin()),
             std::nullopt}};
  }
  return {time_vs_ranks(at_size, *size), traffic_vs_ranks(at_size, *size)};
}

}  // namespace ringsim
