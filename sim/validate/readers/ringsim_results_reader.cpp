// ringsim's own results JSON ("kind": "simulated" or "measured", docs/results-format.md), read by the
// results' one reader (sim/results/results_document.h): its ring rows become the trace's points.
#include "../trace_readers.h"

#include "../../common/input_error.h"
#include "../../common/json_input.h"
#include "../../model/algorithm_registry.h"
#include "../../results/results_document.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ringsim {

bool detect_ringsim_results(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && text[start] == '{' && text.find("\"kind\"") != std::string_view::npos &&
         text.find("\"results\"") != std::string_view::npos;
}

MeasuredTrace read_ringsim_results(std::string_view text, const std::string& file) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    const std::size_t byte = std::min(json_error_byte(text, e), text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(byte), '\n'));
    throw InputError(fmt::format("{}:{}: malformed results JSON", file, line));
  }
  const ResultsDocument results = ResultsDocument::parse(document, file);
  MeasuredTrace trace;
  trace.format = "ringsim";
  trace.time_meaning = "time_s: median over iterations of the slowest rank's time";
  for (const ResultRow& row : results.rows)
    if (names_algorithm(row.algorithm, AlgorithmId::ring))  // the validator compares the ring
      trace.points.push_back({row.bytes, row.time_s, row.placement, row.order, row.ranks, 0});
  if (trace.points.empty()) throw_input_error(file, "/results", "no ring results");
  if (!results.topology.empty())
    trace.topology = (std::filesystem::path(file).parent_path() / results.topology).lexically_normal().string();
  return trace;
}

}  // namespace ringsim
