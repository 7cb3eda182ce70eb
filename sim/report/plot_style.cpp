#include "plot_style.h"

#include "../model/algorithm_registry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <functional>

namespace ringsim {
namespace {

using nlohmann::json;

// One colour per entry of kAlgorithmCatalog, in its order; ring variants in blues and cyans,
// parameter servers in reds and oranges, so that families read together.
constexpr std::array kCatalogColours{"#1f77b4", "#17becf", "#0e6e7a", "#6b6ecf", "#d62728", "#ff7f0e", "#e377c2",
                                     "#8c564b", "#bcbd22", "#9467bd", "#2ca02c", "#637939", "#7b4173", "#ce6dbd",
                                     "#843c39", "#e7969c", "#de9ed6", "#393b79"};
static_assert(kCatalogColours.size() == kAlgorithmCatalog.size(), "one colour per catalogued algorithm");
constexpr std::array kOtherColours{"#a55194", "#8ca252", "#bd9e39", "#5254a3", "#ad494a"};

constexpr std::array kSymbols{"circle", "square", "diamond", "triangle-up", "x",
                              "cross", "triangle-down", "star", "pentagon", "hexagon"};
constexpr std::array kDashes{"solid", "dash", "dot", "dashdot", "longdash"};

// Ticks at most this many per axis: more crowd the labels of a 1000-pixel plot.
constexpr int kMostTicks = 8;

// Exponents E..F of BASE, every STRIDE-th, for the smallest stride of 1, 2, 5, 10, 20 that gives at
// most kMostTicks; the exponents are multiples of the stride (2^10, 2^20: 1 KiB, 1 MiB).
std::vector<int> exponents(int first, int last) {
  for (int stride : {1, 2, 5, 10, 20}) {
    std::vector<int> kept;
    for (int e = first; e <= last; ++e)
      if (e % stride == 0) kept.push_back(e);
    if (kept.size() <= static_cast<std::size_t>(kMostTicks) && !kept.empty()) return kept;
  }
  return {first, last};
}

// The powers of BASE from LOW to HIGH as exponents; when fewer than two fall inside, the nearest powers
// outside are added so that every axis has two ticks (and its range reaches them).
std::vector<int> power_exponents(double low, double high, double base) {
  const double tolerance = 1e-9;
  int first = static_cast<int>(std::ceil(std::log(low) / std::log(base) - tolerance));
  int last = static_cast<int>(std::floor(std::log(high) / std::log(base) + tolerance));
  if (last - first < 1) {
    first = std::min(first, static_cast<int>(std::floor(std::log(low) / std::log(base) + tolerance)));
    last = std::max(last, static_cast<int>(std::ceil(std::log(high) / std::log(base) - tolerance)));
    if (last == first) ++last;
  }
  return exponents(first, last);
}

json log_axis(const std::string& title, const json& values, const json& labels, double low, double high) {
  // A margin of 4% of the span (at least 0.05 decades) keeps the end markers off the frame.
  const double lo = std::log10(low), hi = std::log10(high), pad = std::max(0.05, 0.04 * (hi - lo));
  return {{"title", {{"text", title}}}, {"type", "log"},      {"tickmode", "array"}, {"tickvals", values},
          {"ticktext", labels},         {"zeroline", false}, {"range", {lo - pad, hi + pad}}};
}

}  // namespace

std::string case_colour(std::size_t index) {
  // Okabe and Ito's colours, distinct for colour-blind readers; then they repeat.
  static constexpr std::array<const char*, 8> kCaseColours = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                              "#56B4E9", "#D55E00", "#999933", "#000000"};
  return kCaseColours[index % kCaseColours.size()];
}

std::string algorithm_colour(std::string_view algorithm) {
  if (const AlgorithmRow* row = find_algorithm_row(algorithm)) return kCatalogColours[static_cast<std::size_t>(row->id)];
  // std::hash of a string_view is not fixed across libraries; a sum of the characters is.
  std::size_t sum = 0;
  for (char c : algorithm) sum = sum * 31 + static_cast<unsigned char>(c);
  return kOtherColours[sum % kOtherColours.size()];
}

std::size_t algorithm_rank(std::string_view algorithm) {
  const AlgorithmRow* row = find_algorithm_row(algorithm);
  return row != nullptr ? static_cast<std::size_t>(row->id) : kAlgorithmCatalog.size();
}

std::string line_symbol(std::size_t index) { return kSymbols[index % kSymbols.size()]; }
std::string line_dash(std::size_t index) { return kDashes[index % kDashes.size()]; }

std::string size_tick_label(std::uint64_t bytes) {
  constexpr std::array<std::pair<std::uint64_t, const char*>, 4> kUnits{
      {{1ull << 40, "TiB"}, {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}}};
  for (const auto& [unit, name] : kUnits)
    if (bytes >= unit && bytes % unit == 0) return fmt::format("{} {}", bytes / unit, name);
  return fmt::format("{} B", bytes);
}

std::string time_tick_label(double seconds) {
  constexpr std::array<std::pair<double, const char*>, 4> kUnits{{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}};
  for (const auto& [unit, name] : kUnits)
    if (seconds >= unit * (1 - 1e-9)) return fmt::format("{:g} {}", seconds / unit, name);
  return fmt::format("{:g} s", seconds);
}

json size_axis(std::uint64_t lowest, std::uint64_t highest) {
  json values = json::array(), labels = json::array();
  double low = static_cast<double>(lowest), high = static_cast<double>(highest);
  for (int e : power_exponents(low, high, 2)) {
    const std::uint64_t bytes = std::uint64_t{1} << std::max(0, e);
    values.push_back(bytes), labels.push_back(size_tick_label(bytes));
    low = std::min(low, static_cast<double>(bytes)), high = std::max(high, static_cast<double>(bytes));
  }
  return log_axis("message size S (log scale)", values, labels, low, high);
}

json log_time_axis(double lowest_s, double highest_s) {
  json values = json::array(), labels = json::array();
  double low = lowest_s, high = highest_s;
  const auto add = [&](double seconds) {
    values.push_back(seconds * 1e3), labels.push_back(time_tick_label(seconds));
    low = std::min(low, seconds), high = std::max(high, seconds);
  };
  const auto decades = power_exponents(lowest_s, highest_s, 10);
  const bool inside = std::count_if(decades.begin(), decades.end(), [&](int e) {
                        return std::pow(10.0, e) >= lowest_s * (1 - 1e-9) && std::pow(10.0, e) <= highest_s * (1 + 1e-9);
                      }) >= 2;
  if (inside) {
    for (int e : decades) add(std::pow(10.0, e));
  } else {
    // Less than a decade: powers of 2 of the unit of the lowest time (8 ms, 16 ms, 32 ms).
    const double unit = std::pow(10.0, 3 * std::floor(std::log10(lowest_s) / 3 + 1e-9));
    for (int e : power_exponents(lowest_s / unit, highest_s / unit, 2)) add(std::ldexp(unit, e));
  }
  json axis = log_axis("time (log scale)", values, labels, low * 1e3, high * 1e3);
  return axis;
}

json stacked_panels(const std::string& title, const std::vector<Panel>& panels) {
  constexpr int kPanelHeight = 270, kGap = 95, kTop = 80, kBottom = 60;
  const int n = static_cast<int>(panels.size());
  const double plot_height = n * kPanelHeight + (n - 1) * kGap;
  json data = json::array();
  json layout = {{"title", {{"text", title}}},
                 {"height", static_cast<int>(plot_height) + kTop + kBottom},
                 {"margin", {{"t", kTop}, {"b", kBottom}, {"r", 20}}},
                 {"hovermode", "closest"},
                 {"showlegend", true},  // also for one series: the legend is the colour key
                 {"annotations", json::array()}};
  for (int i = 0; i < n; ++i) {
    const std::string suffix = i == 0 ? "" : std::to_string(i + 1);
    const double top = 1 - i * (kPanelHeight + kGap) / plot_height;
    const double bottom = std::max(0.0, top - kPanelHeight / plot_height);
    json xaxis = panels[i].xaxis, yaxis = panels[i].yaxis;
    xaxis["anchor"] = "y" + suffix;
    yaxis["anchor"] = "x" + suffix;
    yaxis["domain"] = {bottom, top};
    layout["xaxis" + suffix] = xaxis;
    layout["yaxis" + suffix] = yaxis;
    layout["legend" + suffix] = {{"x", 1.02}, {"xanchor", "left"}, {"y", top}, {"yanchor", "top"}};
    layout["annotations"].push_back({{"text", "<b>" + panels[i].title + "</b>"}, {"xref", "paper"}, {"yref", "paper"},
                                     {"x", 0}, {"y", top}, {"xanchor", "left"}, {"yanchor", "bottom"},
                                     {"yshift", 8}, {"showarrow", false}, {"font", {{"size", 14}}}});
    for (json trace : panels[i].traces) {
      trace["xaxis"] = "x" + suffix;
      trace["yaxis"] = "y" + suffix;
      trace["legend"] = "legend" + suffix;
      data.push_back(std::move(trace));
    }
  }
  return {{"data", std::move(data)}, {"layout", std::move(layout)}};
}

}  // namespace ringsim
