// Per-step events of the rank program (events.jsonl) -> a Chrome trace-event file, the JSON format
// of Horovod's timeline, which Perfetto and chrome://tracing open: one process per case and size,
// one thread per rank, one complete slice per step, on the simulated clock in microseconds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// One step of one rank, as rank_main.cpp records it (chunk, peer and bytes are what it received).
struct StepRecord {
  int rank = 0;
  int phase = 0;
  int step = 0;
  int chunk = 0;
  int peer = 0;
  std::uint64_t bytes = 0;
  double start_s = 0;
  double end_s = 0;
};

// One line of an events file: the steps of every rank for one size (last timed iteration).
struct SizeSteps {
  std::uint64_t bytes = 0;
  std::vector<std::string> phase_names;  // index = StepRecord::phase
  std::vector<StepRecord> steps;
};

// Phase names when an events line has no "phase_names": the ring's two phases.
const std::vector<std::string>& default_phase_names();

// Parses the text of an events file (JSON lines); every value is checked (a whole number in range
// where the field is an integer): InputError "FILE:LINE: /json/path: ...". read_events_file throws
// std::runtime_error when the rank program wrote no file.
std::vector<SizeSteps> parse_events_lines(std::string_view text, const std::string& file);
std::vector<SizeSteps> read_events_file(const std::filesystem::path& file);

// One simulated case with the steps it recorded.
struct TimelineCase {
  std::string placement;  // "4-3-1"
  std::string order;      // "block"
  std::string algorithm;  // "ring"
  int ranks = 0;
  std::vector<SizeSteps> sizes;
};

// The trace document: {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}. Each
// case x size is a process (pid from 1, in order) whose process_name metadata also carries
// placement, order, algorithm, ranks and bytes so that tools (ringsim report) can find a case.
nlohmann::json chrome_timeline(std::string_view scenario, const std::vector<TimelineCase>& cases);

}  // namespace ringsim
