// Reading a results JSON (README "Results", written by `ringsim run --json` or `measure --json`) for
// `ringsim report`. Like every reader of results, it ignores keys it does not know.
#pragma once

#include "../analysis/algorithm_costs.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// What a rank moves in one allreduce (absent for "mpi", whose algorithm is the library's secret).
struct RankTraffic {
  std::uint64_t max_rank_sent_bytes = 0;
  std::uint64_t max_rank_recv_bytes = 0;
  std::uint64_t total_bytes = 0;
  int steps = 0;
};

struct ResultEntry {
  std::string placement;  // "4-3-1"
  std::string order;      // "block"
  std::string algorithm;  // "ring"
  std::string variant;    // the scenario variant (what-if model) the entry ran under; "" without variants
  int ranks = 0;
  std::uint64_t bytes = 0;
  double time_s = 0;
  double busbw_GBps = 0;
  std::optional<RankTraffic> traffic;
  std::optional<double> closed_form_s;
  std::optional<CostParameters> cost_model;  // alpha, beta, gamma the closed forms were evaluated with

  std::string case_label() const;  // "4-3-1 block ring (8 ranks)", then " [VARIANT]" under a variant
};

struct ResultsDocument {
  std::string kind;      // "simulated" or "measured"
  std::string scenario;  // scenario name ("" when absent)
  nlohmann::json model;  // as written (null when absent)
  std::vector<ResultEntry> entries;
};

// Throws InputError naming FILE (and the JSON path) when DOCUMENT is not a results JSON with results.
ResultsDocument parse_results_document(const nlohmann::json& document, const std::string& file);
// Reads and parses FILE; throws InputError when it is missing, malformed or not a results JSON.
ResultsDocument load_results_document(const std::filesystem::path& file);

}  // namespace ringsim
