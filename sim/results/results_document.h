// The results JSON of docs/results-format.md, written by `ringsim run --json`, `ringsim measure --json`,
// the shards of `ringsim sweep run` and `ringsim sweep merge`, and read by `ringsim report`,
// `ringsim validate` and the merge: this type is its only writer and reader (a test greps for it).
// Reading ignores keys it does not know (newer writers may add some) and fills what older or
// hand-written files leave out; writing keeps the files of every golden byte for byte.
#pragma once

#include "../model/cost_parameters.h"
#include "../rank/rank_report.h"
#include "case_results.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// The slowest rank's time over the timed iterations: "time_stats".
struct TimeStats {
  double min = 0;
  double median = 0;
  double max = 0;

  bool operator==(const TimeStats&) const = default;
};

// One case at one size: a row of "results".
struct ResultRow {
  std::string placement;           // "4-3-1"
  std::string order = "block";     // "block" / "cyclic"
  std::string algorithm = "ring";
  std::string collective = "all_reduce";  // nccl-tests' name (collective_catalog.h); written only when not all_reduce
  std::string engine = "smpi";     // what simulated the case; written only when not SMPI
  std::string variant;             // the scenario variant (what-if model); "" without variants
  std::string topology;            // a sweep over several topologies: the row's topology file; else ""
  std::optional<std::size_t> case_index;  // "case": a sweep shard's case number; absent once merged
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;    // timed iterations
  double time_s = 0;               // median over iterations of the slowest rank's time
  double algbw_GBps = 0;
  double busbw_GBps = 0;
  TimeStats time_stats;
  std::optional<long long> wrong;             // null: buffers were not checked
  std::optional<TrafficSummary> traffic;      // null: not counted (the library's allreduce)
  std::optional<double> closed_form_s;        // the algorithm's closed form, when it applies
  std::optional<std::string> nccl_ran;  // NCCL's algorithms: the algorithm and protocol that ran ("Tree/Simple")
  std::optional<CostParameters> cost_model;   // alpha, beta, gamma the closed form was evaluated with

  bool operator==(const ResultRow&) const = default;
};

// A scenario variant's name and model: an element of "variants".
struct VariantModel {
  std::string name;
  nlohmann::json model;
  nlohmann::json nccl_model = nullptr;  // the model NCCL's algorithms ran under when not MODEL; else null

  bool operator==(const VariantModel&) const = default;
};

struct ResultsDocument {
  std::string kind = "simulated";  // "simulated" or "measured"
  std::string scenario;            // the scenario's name ("" when absent)
  std::string question;            // the scenario's question ("" when absent)
  std::string topology;            // the topology file, relative to the results file ("" when absent)
  nlohmann::json model;            // a scenario without variants: its model settings; else null
  // Beside MODEL: the model NCCL's algorithms ran under when the scenario also ran MPI ones under
  // MODEL and named no network (docs/scenario-format.md); else null.
  nlohmann::json nccl_model;
  std::vector<VariantModel> variants;  // a scenario with variants: each one's model
  std::vector<std::string> topologies;  // a sweep over several topologies: their files; else empty
  nlohmann::json source;           // measured: where and how (hosts, MPI, commands); else null
  std::vector<ResultRow> rows;     // "results"
  std::vector<std::string> findings;
  // Values of the topology that came from a default or a GPU model, not from its file (Topology::assumed).
  std::vector<std::string> assumed;

  bool operator==(const ResultsDocument&) const = default;

  nlohmann::json to_json() const;
  // Writes to_json() (2-space indent, final newline) to FILE atomically.
  void save(const std::filesystem::path& file) const;

  // Throws InputError naming FILE (and the JSON path) when DOCUMENT is not a results JSON with results.
  static ResultsDocument parse(const nlohmann::json& document, const std::string& file);
  // The same with "results" absent or empty allowed: a sweep's header (at PATH in FILE) or a shard
  // that got no cases.
  static ResultsDocument parse_part(const nlohmann::json& document, const std::string& file, const std::string& path);
  // Reads and parses FILE; throws InputError when it is missing, malformed or not a results JSON.
  static ResultsDocument load(const std::filesystem::path& file);
};

// One row per case and size, in order; VARIANT names the scenario variant the cases ran under.
std::vector<ResultRow> result_rows(const std::vector<CaseResult>& cases, const std::string& variant = "");

}  // namespace ringsim
