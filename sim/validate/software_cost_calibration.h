// `ringsim calibrate`'s fit of NCCL's software costs (model key nccl.software) to one cluster's trace.
// A call's software cost is spent before its first transfer, so a size's simulated time with the costs
// is its time without them plus call + steps inside nodes x intra_step + steps across nodes x net_step
// (nccl_software_costs.h), exactly. One simulation with the costs at zero therefore serves the fit: the
// non-negative least squares of the relative errors over every size of the trace. Only the terms the
// trace's cluster exercises are fitted (its intra-node kind, its network path); the others, and the costs
// per GB of the buffer (spent in that one simulation), keep the defaults learned across clusters.
#pragma once

#include "../model/scenario.h"
#include "../nccl/tuning/nccl_software_costs.h"
#include "../platform/cluster_layout.h"
#include "measured_cases.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// One size: what the trace measured, what the simulation took with no software cost, and the steps
// of the call NCCL ran there.
struct SoftwareCostSample {
  double measured_s = 0;
  double zero_cost_s = 0;
  NcclCallSteps steps;
};

// The cluster's three terms, seconds.
struct SoftwareCostTerms {
  double call_s = 0;
  double intra_step_s = 0;
  double net_step_s = 0;
};

// Non-negative least squares of (zero_cost_s + cost) / measured_s - 1 over SAMPLES, by trying every set
// of free terms; a term no sample uses stays 0. Of the sets that fit alike (within 1e-6), the one of
// fewest terms, the call before the network step before the step inside nodes.
SoftwareCostTerms fit_software_cost_terms(const std::vector<SoftwareCostSample>& samples);

double software_cost_s(const SoftwareCostTerms& terms, const NcclCallSteps& steps);

struct SoftwareCostRow {
  std::string label;  // "8-8/block"
  std::uint64_t bytes = 0;
  std::string ran;    // "Ring/Simple"
  double measured_s = 0, learned_s = 0, fitted_s = 0;
};

struct SoftwareCostFit {
  NcclSoftwareCosts costs;            // the learned defaults with the cluster's terms replaced
  std::vector<std::string> terms;     // the terms fitted: "call", "intra_step.nvlink", "net_step.ofi"
  double learned_median_error = 0;    // median |error| with the learned defaults
  double fitted_median_error = 0;     // with the fitted costs
  std::vector<SoftwareCostRow> rows;
};

// Simulates GROUPED with SCENARIO (the model made for NCCL, already calibrated for bandwidth) and
// ALGORITHM at zero software cost, then fits. Nullopt when a simulation failed (printed), no size ran
// an NCCL algorithm, or the platform is not a compact topology.
std::optional<SoftwareCostFit> fit_software_costs(const Scenario& scenario, const Platform& platform,
                                                  const GroupedTrace& grouped, const std::string& algorithm);

}  // namespace ringsim
