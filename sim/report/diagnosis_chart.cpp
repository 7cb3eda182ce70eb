#include "diagnosis_chart.h"

#include "plot_style.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../rank/collective_catalog.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace ringsim {
namespace {

using nlohmann::json;

constexpr double kMost = std::numeric_limits<double>::max();

// A candidate of the ranking: its name, score and simulated times, in the order of validate's "sizes".
struct RankedCandidate {
  DiagnosisCurve curve;
  bool hardware = false;  // the hardware as described: its change is "none"
};

RankedCandidate read_candidate(const JsonValue& value) {
  JsonObjectReader fit = value.object();
  RankedCandidate candidate{{fit.required_string("candidate"), fit.required_number("score", 0, kMost), {}}, false};
  candidate.hardware = fit.optional_string("change").value_or("") == "none";
  for (const JsonValue& size : fit.required("sizes").array()) candidate.curve.time_s.push_back(size.object().required_number("simulated_s", 0, kMost));
  return candidate;
}

// The times of CANDIDATE at the chart's rows (the first case's: indices ROWS of validate's "sizes").
DiagnosisCurve at_rows(const RankedCandidate& candidate, const std::vector<std::size_t>& rows, const std::string& file,
                       const std::string& path) {
  DiagnosisCurve curve{candidate.curve.name, candidate.curve.score, {}};
  for (std::size_t row : rows) {
    if (row >= candidate.curve.time_s.size())
      throw InputError(fmt::format("{}: {}: candidate \"{}\" has {} sizes, validate's \"sizes\" more", file, path, curve.name,
                                   candidate.curve.time_s.size()));
    curve.time_s.push_back(candidate.curve.time_s[row]);
  }
  return curve;
}

json busbw_line(const std::string& name, const DiagnosisChart& chart, const std::vector<double>& times, const std::string& colour,
                const std::string& dash, const std::string& mode) {
  json x = json::array(), y = json::array();
  for (std::size_t i = 0; i < chart.bytes.size(); ++i) {
    x.push_back(chart.bytes[i]);
    y.push_back(times[i] > 0 ? json(static_cast<double>(chart.bytes[i]) / times[i] * chart.busbw_factor[i] / 1e9) : json());
  }
  return {{"type", "scatter"}, {"mode", mode},  {"name", name}, {"x", x}, {"y", y},
          {"line", {{"color", colour}, {"dash", dash}}}, {"marker", {{"color", colour}, {"size", 8}}},
          {"hovertemplate", name + ": %{y:.2f} GB/s<extra></extra>"}};
}

}  // namespace

DiagnosisChart read_diagnosis_chart(const std::string& file) {
  const json document = load_json_file(file);
  JsonObjectReader top(document, file, "");
  if (top.optional_string("kind").value_or("") != "validation")
    throw InputError(fmt::format("{}: /kind: expected \"validation\", as `ringsim validate --explain --json FILE` writes", file));
  DiagnosisChart chart;
  chart.scenario = top.optional_string("scenario").value_or("");
  if (auto trace = top.optional("trace")) chart.trace = trace->object().optional_string("file").value_or("");
  const auto diagnosis_value = top.optional("diagnosis");
  if (!diagnosis_value)
    throw InputError(fmt::format("{}: /diagnosis: missing; write the file with `ringsim validate ... --explain --json FILE`", file));
  // The first case's rows: a validation of several placements draws the first.
  std::vector<std::size_t> rows;
  const std::vector<JsonValue> sizes = top.required("sizes").array();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    JsonObjectReader row = sizes[i].object();
    const std::string name = row.required_string("placement") + " " + row.required_string("order");
    if (chart.case_name.empty()) chart.case_name = name;
    if (name != chart.case_name) continue;
    rows.push_back(i);
    chart.bytes.push_back(row.required("bytes").integer<std::uint64_t>(1, std::numeric_limits<std::uint64_t>::max()));
    chart.measured_s.push_back(row.required_number("measured_s", 0, kMost));
    const auto ranks = static_cast<int>(row.required_int("ranks", 1, std::numeric_limits<int>::max()));
    const auto collective = find_collective(row.optional_string("collective").value_or("all_reduce"));
    if (!collective) throw InputError(fmt::format("{}: {}: not a collective of nccl-tests", file, row.path_of("collective")));
    chart.busbw_factor.push_back(busbw_factor(*collective, ranks));
  }
  if (rows.empty()) throw InputError(fmt::format("{}: /sizes: no size to draw", file));
  JsonObjectReader diagnosis = diagnosis_value->object();
  const std::string ranking_path = diagnosis.path_of("ranking");
  std::vector<RankedCandidate> ranking;
  for (const JsonValue& value : diagnosis.required("ranking").array()) ranking.push_back(read_candidate(value));
  const auto hardware = std::find_if(ranking.begin(), ranking.end(), [](const RankedCandidate& c) { return c.hardware; });
  if (hardware == ranking.end()) throw InputError(fmt::format("{}: {}: no \"hardware as described\" (change \"none\")", file, ranking_path));
  chart.hardware = at_rows(*hardware, rows, file, ranking_path);
  const std::string explained_by = diagnosis.optional_string("explained_by").value_or("");
  chart.explains = !explained_by.empty();
  chart.confirm = diagnosis.optional_string("confirm").value_or("");
  // The variant: the one named, else the best-ranked candidate other than the hardware.
  const auto variant = std::find_if(ranking.begin(), ranking.end(), [&](const RankedCandidate& c) {
    return chart.explains ? c.curve.name == explained_by : !c.hardware;
  });
  if (variant != ranking.end()) chart.variant = at_rows(*variant, rows, file, ranking_path);
  return chart;
}

ReportSection diagnosis_section(const DiagnosisChart& chart) {
  json data = json::array({busbw_line("measured", chart, chart.measured_s, "#000000", "solid", "markers"),
                           busbw_line("hardware as described (simulated)", chart, chart.hardware.time_s, "#0072B2", "dash", "lines+markers")});
  std::string verdict;
  if (chart.variant) {
    data.push_back(busbw_line(chart.variant->name + " (simulated)", chart, chart.variant->time_s, "#D55E00", "solid", "lines+markers"));
    verdict = chart.explains
                  ? fmt::format("The measured points follow the {} curve: its score (median |log error|) is {:.1f}% against {:.1f}% for "
                                "the hardware as described, so it explains the run. To confirm it: {}.",
                                chart.variant->name, chart.variant->score * 100, chart.hardware.score * 100, chart.confirm)
                  : fmt::format("No candidate explains the run: the best, {}, scores {:.1f}% against {:.1f}% for the hardware as "
                                "described, not clearly better (it would need at most 0.75 of it and 2 points less).",
                                chart.variant->name, chart.variant->score * 100, chart.hardware.score * 100);
  } else {
    verdict = "No candidate was simulated (each was excluded by the log or changes nothing here).";
  }
  json layout = {{"title", {{"text", fmt::format("Measured against the hardware and {}: {}", chart.variant ? chart.variant->name : "no variant",
                                                 chart.case_name)}}},
                 {"xaxis", size_axis(chart.bytes.front(), chart.bytes.back())},
                 {"yaxis", {{"title", {{"text", "busbw (GB/s)"}}}, {"rangemode", "tozero"}}},
                 {"height", 440},
                 {"margin", {{"t", 50}}}};
  return {"plot-diagnosis",
          "Why is this run slower than its hardware? The diagnosis",
          fmt::format("Bus bandwidth against message size for {}{}: the measured run (black dots), the simulation of the hardware "
                      "as its topology describes it (blue, dashed) and of the candidate mechanism `ringsim validate --explain` "
                      "ranks first (orange). Where the measured points leave the blue line, the run is slower than its hardware; "
                      "where they follow the orange one, that mechanism reproduces the loss. {}",
                      chart.case_name, chart.trace.empty() ? "" : fmt::format(" in {}", chart.trace), verdict),
          json{{"data", data}, {"layout", layout}}};
}

}  // namespace ringsim
