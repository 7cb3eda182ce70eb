// Plots a-c of the report: time and busbw against size; time and per-rank traffic against N.
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

constexpr const char* kTimeVsSize =
    "Median time of the slowest rank per message size, one line per placement × algorithm (log-log). Small "
    "sizes are latency-bound: the ring's 2(N−1) steps each pay the route's latency, so the lines are flat and "
    "close. Large sizes are bandwidth-bound: time grows in proportion to S, and the vertical gap between two "
    "lines is the ratio of their bottleneck bandwidths.";
constexpr const char* kBusbwVsSize =
    "Bus bandwidth = S/t · 2(N−1)/N (nccl-tests' definition), the rate at which a bandwidth-optimal allreduce "
    "would have to drive each rank's busiest link. It rises with size as the latency is amortised and levels "
    "off near the rate of the bottleneck link (the NIC, for a ring across nodes). A line that levels off at "
    "1/2 or 1/3 of another shares its bottleneck among 2 or 3 ring edges (cyclic placements).";

// Plotly's default colour sequence, given explicitly so that an algorithm's closed-form line and
// traffic curves take the colour of its simulated points.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

const char* colour(std::size_t index) { return kPalette[index % std::size(kPalette)]; }

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

json size_axis(const std::set<std::uint64_t>& sizes) {
  json axis_json = axis("message size S (bytes, log scale)", true);
  json values = json::array(), labels = json::array();
  for (auto bytes : sizes) values.push_back(bytes), labels.push_back(format_bytes(bytes));
  axis_json["tickvals"] = values;
  axis_json["ticktext"] = labels;
  return axis_json;
}

// The legend is Plotly's, at the right; LEGEND_ENTRIES makes the plot tall enough to list them all.
json layout(const std::string& title, json xaxis, json yaxis, std::size_t legend_entries) {
  return {{"title", {{"text", title}}},
          {"xaxis", std::move(xaxis)},
          {"yaxis", std::move(yaxis)},
          {"height", std::max<std::size_t>(460, 140 + 20 * legend_entries)},
          {"margin", {{"t", 50}, {"r", 20}}},
          {"hovermode", "closest"}};
}

json figure(json data, json figure_layout) { return {{"data", std::move(data)}, {"layout", std::move(figure_layout)}}; }

json line_trace(const std::string& name, const json& x, const json& y, const char* line_colour, const char* mode,
                const char* dash = "solid") {
  return {{"type", "scatter"}, {"mode", mode},   {"name", name},
          {"x", x},            {"y", y},         {"line", {{"color", line_colour}, {"dash", dash}}},
          {"marker", {{"color", line_colour}, {"size", 8}}}};
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
                                     std::uint64_t bytes, int min_ranks, int max_ranks, const char* line_colour) {
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
  json trace = line_trace(name + " closed form", x, y, line_colour, "lines", "dash");
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
  json data = json::array();
  bool any_closed_form = false;
  const auto series = group(at_size, [&](const ResultRow& e) { return algorithm_series(e, orders.size() > 1); });
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& [name, entries] = series[i];
    json x = json::array(), y = json::array(), text = json::array();
    for (const ResultRow* e : entries)
      x.push_back(e->ranks), y.push_back(e->time_s * 1e3), text.push_back(fmt::format("{} {}", e->placement, e->order));
    json points = line_trace(name + " simulated", x, y, colour(i), "markers");
    points["text"] = text;
    points["hovertemplate"] = "%{text}, N=%{x}: %{y:.4g} ms<extra></extra>";
    data.push_back(points);
    if (auto line = closed_form_line(name, entries, bytes, *ranks.begin(), *ranks.rbegin(), colour(i)))
      data.push_back(*line), any_closed_form = true;
  }
  section.figure = figure(data, layout(fmt::format("Time at S = {} against N", format_bytes(bytes)), axis("ranks N", false),
                                       axis("time (ms)", false), data.size()));
  section.explanation = fmt::format(
      "Markers: simulated median time of the slowest rank at S = {} for each rank count N (hover for the "
      "placement). {} The ring's time tends to 2·S·β as N grows, because its bandwidth term 2(N−1)/N·S·β "
      "barely grows while only the latency term 2(N−1)·α grows with N; an algorithm whose busiest rank moves "
      "(N−1)·S grows linearly in N at large sizes. A marker far from its line is where the simulated network "
      "departs from the cost model: links shared by several flows, contention at a switch.",
      format_bytes(bytes),
      any_closed_form ? "Dashed lines: each algorithm's closed form (α-β-γ cost model of the results)."
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
  json data = json::array();
  const auto series = group(counted, [](const ResultRow& e) { return algorithm_series(e, false); });
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::map<int, std::pair<double, double>> most;  // N -> (sent, received) in units of S, max over placements
    for (const ResultRow* e : series[i].second) {
      auto& [sent, received] = most[e->ranks];
      sent = std::max(sent, static_cast<double>(e->traffic->max_rank_sent_bytes) / static_cast<double>(e->bytes));
      received = std::max(received, static_cast<double>(e->traffic->max_rank_recv_bytes) / static_cast<double>(e->bytes));
    }
    json x = json::array(), sent = json::array(), received = json::array();
    for (const auto& [n, values] : most) x.push_back(n), sent.push_back(values.first), received.push_back(values.second);
    data.push_back(line_trace(series[i].first + " sent", x, sent, colour(i), "lines+markers"));
    data.push_back(line_trace(series[i].first + " received", x, received, colour(i), "lines+markers", "dot"));
  }
  json x = json::array(), optimum = json::array();
  for (int n = *ranks.begin(); n <= *ranks.rbegin(); n += std::max(1, (*ranks.rbegin() - *ranks.begin()) / 200))
    x.push_back(n), optimum.push_back(2.0 * (n - 1) / n);
  data.push_back(line_trace("2(N−1)/N (ring, bandwidth-optimal)", x, optimum, "#999999", "lines", "dash"));
  section.figure = figure(data, layout(fmt::format("Most bytes one rank sends and receives, at S = {}", format_bytes(bytes)),
                                       axis("ranks N", false), axis("bytes per rank, in units of S", false), data.size()));
  section.explanation =
      "The most bytes any one rank sends (solid) and receives (dotted) in one allreduce, in units of the message "
      "size S, for each algorithm. The ring's per-rank traffic stays at 2(N−1)/N·S (grey dashes: below 2·S for "
      "every N), which is optimal: every rank must send its (N−1)/N·S share out and get the rest in. A parameter "
      "server's busiest rank (the server) grows as (N−1)·S, so its time grows with N however fast the network is.";
  return section;
}

}  // namespace

std::string case_label(const ResultRow& row) {
  // Rows of ringsim's writer name a known placement and order; anything else is shown as written.
  const auto counts = parse_rank_counts(row.placement);
  const auto order = parse_rank_order(row.order);
  std::string name = fmt::format("{} {} {}", row.placement, row.order, row.algorithm);
  if (counts && order) {
    SimulationCase spec;
    spec.placement.ranks_per_node = *counts;
    spec.placement.order = *order;
    spec.algorithm = row.algorithm;
    name = case_name(spec, CaseNaming::legend);
  }
  const std::string label = fmt::format("{} ({} ranks)", name, row.ranks);
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

std::vector<ReportSection> size_sections(const ResultsDocument& results) {
  const auto entries = all_entries(results);
  std::set<std::uint64_t> sizes;
  for (const ResultRow* e : entries) sizes.insert(e->bytes);
  if (sizes.size() < 2)
    return {{"plot-time-vs-size", "Time against message size",
             fmt::format("Left out: the results hold one size ({}), so there is nothing to draw against size; give "
                         "the scenario several \"sizes\".",
                         format_bytes(*sizes.begin())),
             std::nullopt}};
  json time_data = json::array(), busbw_data = json::array();
  const auto series = group(entries, [](const ResultRow& e) { return case_label(e); });
  for (std::size_t i = 0; i < series.size(); ++i) {
    auto sorted = series[i].second;
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->bytes < b->bytes; });
    json x = json::array(), t = json::array(), bw = json::array();
    for (const ResultRow* e : sorted) x.push_back(e->bytes), t.push_back(e->time_s * 1e3), bw.push_back(e->busbw_GBps);
    json time_trace = line_trace(series[i].first, x, t, colour(i), "lines+markers");
    time_trace["hovertemplate"] = "%{y:.4g} ms<extra>%{fullData.name}</extra>";
    time_data.push_back(time_trace);
    json busbw_trace = line_trace(series[i].first, x, bw, colour(i), "lines+markers");
    busbw_trace["hovertemplate"] = "%{y:.3f} GB/s<extra>%{fullData.name}</extra>";
    busbw_data.push_back(busbw_trace);
  }
  return {{"plot-time-vs-size", "Time against message size", kTimeVsSize,
           figure(time_data, layout("Median time of the slowest rank", size_axis(sizes), axis("time (ms, log scale)", true),
                                    series.size()))},
          {"plot-busbw-vs-size", "Bus bandwidth against message size", kBusbwVsSize,
           figure(busbw_data, layout("Bus bandwidth", size_axis(sizes), axis("busbw (GB/s)", false), series.size()))}};
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
