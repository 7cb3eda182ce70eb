// Where a validation's error lies: per regime (consecutive sizes of one case that ran the same
// algorithm and protocol), a line T = a + bytes / b through the measured times and one through the
// simulated times, so that a user sees whether the simulation misses a cost paid once per call (the
// latency a) or one paid per byte (the bandwidth b). A gap in a alone is latency the model lacks (per
// step or per hop costs of the cluster); a gap in b alone is a rate (a NIC's efficiency, a link).
#pragma once

#include "comparison.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// T = latency_s + bytes / bytes_per_s.
struct TimeLine {
  double latency_s = 0;
  double bytes_per_s = 0;
};

struct TimedSize {
  std::uint64_t bytes = 0;
  double time_s = 0;
};

// The line closest to POINTS in relative error (calibration.h's fit_step_times: small and large sizes
// weigh alike). Nullopt for fewer than two distinct sizes, and when the line is not a cost model: a
// negative latency or a bandwidth that is not positive (times falling with the size).
std::optional<TimeLine> fit_time_line(const std::vector<TimedSize>& points);

// One regime of one compared case: its sizes and the two lines.
struct RegimeSplit {
  std::string case_label;  // "8-8 block"
  std::string ran;         // "NVLSTree/Simple"; empty when the rows do not say
  int ranks = 0;
  std::uint64_t from_bytes = 0;
  std::uint64_t to_bytes = 0;
  std::size_t sizes = 0;
  TimeLine measured;
  TimeLine simulated;
};

// The regimes of SIZES (one case's rows; taken in size order): runs of consecutive rows with the same
// nccl_ran (all rows one regime when none says), kept when they hold at least MIN_SIZES sizes and
// both lines fit.
std::vector<RegimeSplit> split_by_regime(std::vector<ComparedSize> sizes, std::size_t min_sizes = 3);

}  // namespace ringsim
