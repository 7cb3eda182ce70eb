// Results of simulated (or measured) cases, and the results JSON of README "Results".
#pragma once

#include "model_settings.h"
#include "placement.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct SimulationCase {
  PlacementSpec placement;
  std::string algorithm;
};

struct SizeResult {
  std::uint64_t bytes = 0;
  std::vector<double> times_s;  // slowest rank's time per timed iteration
  std::optional<long long> wrong;  // nullopt: buffers were not checked

  double median_s() const;
  double min_s() const;
  double max_s() const;
};

struct CaseResult {
  SimulationCase spec;
  int ranks = 0;
  std::vector<SizeResult> sizes;
};

// nccl-tests' definitions: algbw = S/t; busbw = algbw * 2(n-1)/n for allreduce. GB/s = 1e9 B/s.
double algbw_GBps(std::uint64_t bytes, double time_s);
double busbw_GBps(std::uint64_t bytes, double time_s, int ranks);

// {"kind", "scenario", "results": [...]}; callers add "model" (simulated) or "source" (measured).
nlohmann::json results_json(std::string_view kind, std::string_view scenario, const std::vector<CaseResult>& cases);

}  // namespace ringsim
