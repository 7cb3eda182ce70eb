// `ringsim calibrate`'s computation: the step-time fit of a grouped trace, expressed against the
// scenario's compact topology as the NIC keys of a model file (nic_efficiency, nic_latency), on the
// routes of the topology's platform plan: a route crosses the links it does in the simulation
// (NICs, switches, and between racks uplinks and the spine), whatever the nodes' types.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "calibration.h"
#include "measured_cases.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// What the fitted values are expressed against: the longest route (by latency) between two ranks on
// different nodes of the fitted cases, as the platform plan routes it, and the NICs it crosses.
struct CalibrationRoute {
  double route_latency_s = 0;   // all its links': NICs, switches, uplinks, spine
  double fixed_latency_s = 0;   // its links' other than the NICs (which calibration sets)
  int nic_hops = 2;             // NICs it crosses
  double nic_bandwidth_Bps = 0; // the slowest of them
  // Its transport's payload share (topology.h), which the model made for NCCL applies before a
  // calibrated nic_efficiency: the file for NCCL's algorithms gives the efficiency beyond it.
  double nic_payload_share = 1;
};

// The scenario's compact topology; checked before the trace is read, so a scenario that cannot be
// calibrated fails first. Throws InputError for SimGrid XML.
Platform calibration_platform(const Scenario& scenario);

// The route of the cases GROUPED fits (optimized orders and single-node cases excluded; every case when
// none is left, so a trace on one node still reports its route). Throws InputError naming TRACE_FILE
// for a placement the platform cannot hold, and naming the topology for a zero-latency route.
CalibrationRoute calibration_route(const Platform& platform, const GroupedTrace& grouped, const std::string& trace_file);

struct CalibrationRow {
  std::string label;  // the placement's
  std::uint64_t bytes = 0;
  int ranks = 0;
  double edges = 0;  // ring edges on the busiest NIC direction (NCCL's rings over several NICs: a fraction)
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
  // a fitted latency below the route's other links' leaves the NICs without latency). None for nccl_ring: the step
  // model's a is what ONE message per step pays, while nccl_ring pipelines many slices per step, each
  // paying the route's latency; its latency stays the topology's.
  std::optional<double> nic_latency_s;
};

// Ring edges on the busiest NIC direction for ALGORITHM's ring on PLACEMENT: the rank order's for the
// MPI rings. NCCL's node-contiguous rings cross each node boundary once per direction, each of its C
// channels carrying 1/C of the data: on one NIC per node that is one edge; over k NICs, as NCCL
// spreads its channels beside the ranks' NICs (nccl_rails.h, MODEL's NCCL facts), the busiest NIC
// direction carries the share of the channels crossing it (1/k when they spread evenly).
double calibration_edges(const std::string& algorithm, const PlacementSpec& placement, const ModelSettings& model);

// Fits every case (optimized orders and single-node cases excluded) at sizes >= MIN_BYTES, counting
// edges for ALGORITHM under MODEL. Throws InputError naming TRACE_FILE when the samples cannot be fitted.
RingCalibration calibrate_ring(const CalibrationRoute& route, const GroupedTrace& grouped, std::uint64_t min_bytes,
                               const std::string& trace_file, const std::string& algorithm, const ModelSettings& model);

// The model file that `run`/`validate --model` apply, with the calibration's provenance.
nlohmann::json calibrated_model(const RingCalibration& calibration, const std::string& trace_file,
                                const std::string& trace_format, std::uint64_t min_bytes);

}  // namespace ringsim
