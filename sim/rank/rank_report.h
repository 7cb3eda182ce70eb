// The files the rank program writes for the launcher, named once for both sides: the report rank 0
// writes (--out), read back by sim/cases/case_report.cpp, and the keys of the events file (--events)
// that sim/results/chrome_timeline.cpp reads. MPI-free, so the launcher links it as well.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// What the ranks put on the wire in one call, from their counted sends (docs/results-format.md: traffic).
// steps: the most point-to-point messages one rank sent.
struct TrafficSummary {
  std::uint64_t max_rank_sent_bytes = 0;
  std::uint64_t max_rank_recv_bytes = 0;
  std::uint64_t total_bytes = 0;  // sent, summed over ranks
  std::uint64_t steps = 0;

  bool operator==(const TrafficSummary&) const = default;
};

// One size of the report: {"bytes", "count", "times_s", "wrong", "traffic"}.
struct RankSizeReport {
  std::uint64_t bytes = 0;
  std::vector<double> times_s;              // slowest rank's time per timed iteration
  std::optional<long long> wrong;           // null: the buffers were not checked (shared)
  std::optional<TrafficSummary> traffic;    // null: not counted (the library's MPI_Allreduce)
};

// The report: {"algorithm", "ranks", "smpi", "sizes": [...]}.
struct RankReport {
  std::string algorithm;
  int ranks = 0;
  bool smpi = false;  // whether the program ran under SMPI
  std::vector<RankSizeReport> sizes;
};

nlohmann::json traffic_json(const std::optional<TrafficSummary>& traffic);  // null when absent

nlohmann::json rank_report_json(const RankReport& report);
// Read back by the launcher (rank_report_reader.cpp, not linked into the rank program): throws
// InputError "FILE: PATH: expected ..." when REPORT lacks a key or holds a value of the wrong type.
RankReport parse_rank_report(const nlohmann::json& report, const std::string& file);

// The events file: one JSON line per size, {"bytes", "fields", "phase_names", "values"}, "values"
// holding the events of every rank flattened, kEventFields.size() numbers each, in this order.
inline constexpr std::array<std::string_view, 8> kEventFields{"rank", "phase", "step",    "chunk",
                                                             "peer", "bytes", "start_s", "end_s"};

}  // namespace ringsim
