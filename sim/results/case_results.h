// Results of simulated (or measured) cases (results_document.h writes them as the results JSON).
#pragma once

#include "../model/cost_parameters.h"
#include "../model/model_settings.h"
#include "../model/placement.h"
#include "../rank/rank_report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct SimulationCase {
  PlacementSpec placement;
  std::string algorithm;
  std::string engine = "smpi";  // what simulated the case: "smpi" or "s4u" (model key "engine")
};

struct SizeResult {
  std::uint64_t bytes = 0;
  std::vector<double> times_s;  // slowest rank's time per timed iteration
  std::optional<long long> wrong;  // nullopt: buffers were not checked
  std::optional<TrafficSummary> traffic = std::nullopt;  // nullopt: not counted (the library's allreduce)
  std::optional<double> closed_form_s = std::nullopt;    // algorithm_costs.h, when it applies to the case

  double median_s() const;
  double min_s() const;
  double max_s() const;
};

struct CaseResult {
  SimulationCase spec;
  int ranks = 0;
  std::vector<SizeResult> sizes;
  std::optional<CostParameters> cost_model = std::nullopt;  // compact topologies only (case_costs.h)
};

// nccl-tests' definitions: algbw = S/t; busbw = algbw * 2(n-1)/n for allreduce. GB/s = 1e9 B/s.
double algbw_GBps(std::uint64_t bytes, double time_s);
double busbw_GBps(std::uint64_t bytes, double time_s, int ranks);

}  // namespace ringsim
