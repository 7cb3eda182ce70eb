// `ringsim calibrate`'s second fit, for nccl_ring: the scale of the topology's link latencies
// (model key link_latency_scale) that makes the trace's latency-bound sizes come out as measured.
// nccl_ring's small sizes are a chain of 2(N-1) hops, each paying its route's latency and little
// else; NCCL's LL protocol gets those hops below what a topology file usually states. The fit
// simulates those sizes at two scales (the time is linear in the scale there), solves for the scale
// that minimises the squared relative errors, and simulates once more to report the residuals.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "measured_cases.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// Latency-bound: from the smallest size up, every size whose measured time stays within kFlatRatio of
// the smallest time so far; at least kMinFlatSizes of them in every case, or none counts.
inline constexpr double kFlatRatio = 1.25;
inline constexpr std::size_t kMinFlatSizes = 3;

// GROUPED restricted to its latency-bound sizes (per case), or nullopt when a case has too few.
std::optional<GroupedTrace> latency_bound_sizes(const GroupedTrace& grouped);

struct LatencyFitRow {
  std::string label;
  std::uint64_t bytes = 0;
  double measured_s = 0, fitted_s = 0;
};

struct LatencyScaleFit {
  double scale = 1;                // link_latency_scale
  double unscaled_median_error = 0;  // at scale 1, over the fitted sizes
  double median_abs_residual = 0;  // at the fitted scale
  std::vector<LatencyFitRow> rows;
};

// Fits SCENARIO (its model already calibrated for bandwidth) on FLAT (latency_bound_sizes) by
// simulating with ALGORITHM. Nullopt when a simulation failed (printed) or the measured times lie
// below what the simulation takes without any latency (the reason in WHY_NOT).
std::optional<LatencyScaleFit> fit_latency_scale(const Scenario& scenario, const Platform& platform,
                                                 const GroupedTrace& flat, const std::string& algorithm,
                                                 std::string& why_not);

}  // namespace ringsim
