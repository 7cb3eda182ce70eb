// `ringsim calibrate`'s computation: the step-time fit of a grouped trace, expressed against the
// scenario's compact topology as the NIC keys of a model file (nic_efficiency, nic_latency).
#pragma once

#include "../model/scenario.h"
#include "calibration.h"
#include "measured_cases.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// What the fitted values are expressed against: the inter-node route (NIC + switch + NIC) and the NIC.
struct CalibrationRoute {
  double route_latency_s = 0;   // 2 NIC latencies + the switch's
  double switch_latency_s = 0;
  double nic_bandwidth_Bps = 0;
};

// Checked before the trace is read, so a scenario that cannot be calibrated fails first.
// Throws InputError for SimGrid XML or a zero-latency route.
CalibrationRoute calibration_route(const Scenario& scenario);

struct CalibrationRow {
  std::string label;  // the placement's
  std::uint64_t bytes = 0;
  int ranks = 0, edges = 0;  // edges: ring edges on the busiest NIC direction
  double measured_s = 0;
  double fitted_s = 0;  // 2(N-1) fitted steps
};

struct RingCalibration {
  CalibrationRoute route;
  StepFit fit;
  std::vector<CalibrationRow> rows;  // one per fitted sample, in fit order
  std::string algorithm = "ring";    // whose ring order counts the edges (validation_algorithm)
  double nic_efficiency = 0;         // fitted bandwidth / NIC bandwidth
  // The NIC latency that makes the route between nodes take the fitted per-step latency (at least 0:
  // a fitted latency below the switch's leaves the NICs without latency). None for nccl_ring: the step
  // model's a is what ONE message per step pays, while nccl_ring pipelines many slices per step, each
  // paying the route's latency; its latency stays the topology's.
  std::optional<double> nic_latency_s;
};

// Ring edges on the busiest NIC direction for ALGORITHM's ring on PLACEMENT: the rank order's for the
// MPI rings; one for nccl_ring, whose node-contiguous rings cross each node boundary once per direction
// (its C channels each carry 1/C of the data over the same NIC).
int calibration_edges(const std::string& algorithm, const PlacementSpec& placement);

// Fits every case (optimized orders and single-node cases excluded) at sizes >= MIN_BYTES, counting
// edges for ALGORITHM. Throws InputError naming TRACE_FILE when the samples cannot be fitted.
RingCalibration calibrate_ring(const CalibrationRoute& route, const GroupedTrace& grouped, std::uint64_t min_bytes,
                               const std::string& trace_file, const std::string& algorithm);

// The model file that `run`/`validate --model` apply, with the calibration's provenance.
nlohmann::json calibrated_model(const RingCalibration& calibration, const std::string& trace_file,
                                const std::string& trace_format, std::uint64_t min_bytes);

}  // namespace ringsim
