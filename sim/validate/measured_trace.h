// A measured trace as the validator uses it, whatever format it came from: (size, time) points,
// with placement and rank count where the format records them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct MeasuredPoint {
  std::uint64_t bytes = 0;
  double time_s = 0;      // the time the format reports for one allreduce (see MeasuredTrace::time_meaning)
  std::string placement;  // "4-3-1" for ringsim traces; empty when the format does not say
  std::string order;      // "block" / "cyclic"; empty when unknown
  std::optional<int> ranks;
  int line = 0;  // where the point was read, for messages
};

struct MeasuredTrace {
  std::string format;        // the reader's registered name
  std::string time_meaning;  // what time_s is, e.g. "t_max (slowest rank), averaged over repetitions"
  std::optional<int> ranks;  // when the whole trace has one rank count
  std::vector<MeasuredPoint> points;

  // "nccl-tests: 12 points, 8 B to 128 MiB, 8 ranks; time = out-of-place time"
  std::string summary() const;
};

}  // namespace ringsim
