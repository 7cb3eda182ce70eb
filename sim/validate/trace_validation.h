// `ringsim validate`'s work without its output: the scenario simulated at the trace's placements and
// sizes, each size compared with its measurement, and the errors judged against a tolerance.
#pragma once

#include "../simulate/simulation.h"
#include "comparison.h"
#include "latency_bandwidth_split.h"
#include "measured_cases.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct ValidationOptions {
  double tolerance = 0.10;      // allowed median |error| at or above MIN_BYTES
  std::uint64_t min_bytes = 0;  // smaller sizes are compared but not judged
  // --min-bytes as given, when MIN_BYTES is the row nccl-tests printed for it (asked_sizes.h), for the
  // labels; 0: MIN_BYTES is as given.
  std::uint64_t min_bytes_asked = 0;
  std::uint64_t min_bytes_as_given() const { return min_bytes_asked ? min_bytes_asked : min_bytes; }
  int jobs = 1;
  bool quiet = false;
};

// One measured placement against its simulated case, size by size (sizes the trace lacks are left out).
struct ComparedCase {
  std::string label;  // "4-3-1/cyclic"
  int ranks = 0;
  std::vector<ComparedSize> sizes;
};

struct Validation {
  std::string algorithm = "ring";   // what was simulated (validation_algorithm)
  std::vector<ComparedCase> cases;  // in the trace's case order
  ErrorSummary all;                 // every compared size
  ErrorSummary judged;              // sizes >= min_bytes; count 0 means nothing to judge
  bool pass = false;                // judged.median_abs_error <= tolerance
  // NCCL's algorithms: NCCL's own time model against the same measurements (every size has it), for
  // comparison; the simulation's errors alone are judged.
  std::optional<ErrorSummary> nccl_model_all, nccl_model_judged;
  // Per case and regime, the measured and simulated latency and bandwidth (latency_bandwidth_split.h).
  std::vector<RegimeSplit> regimes;
};

// OPTIONS for a trace of FORMAT grouped as GROUPED: MIN_BYTES lowered to the row nccl-tests printed
// for the size asked (asked_sizes.h), the size asked kept for the labels.
ValidationOptions options_for_trace(ValidationOptions options, const GroupedTrace& grouped, std::string_view format);

// "64MiB", or "64MiB (nccl-tests' row 67107840B)" when the sizes judged start at the row printed for it.
std::string judged_from_text(const ValidationOptions& options);

// Pairs GROUPED's cases with RESULTS (same order, as simulate_scenario returns them) and summarises.
Validation compare_with_trace(const GroupedTrace& grouped, const std::vector<CaseResult>& results,
                              const ValidationOptions& options);

// Simulates SCENARIO's platform and model at GROUPED's placements and sizes (ring only), then
// compare_with_trace. Nullopt when a case failed; InputError when a placement does not fit.
// The algorithm a trace is compared with: the scenario's when it names exactly one (e.g. nccl_ring for
// an nccl-tests trace), else the MPI ring of the flagship question.
std::string validation_algorithm(const Scenario& scenario);

// SCENARIO as validation simulates it: GROUPED's placements and sizes, validation_algorithm alone.
Scenario scenario_at_trace(const Scenario& scenario, const GroupedTrace& grouped);

std::optional<Validation> validate_against_trace(const Scenario& scenario, const Platform& platform,
                                                 const GroupedTrace& grouped, const ValidationOptions& options);

}  // namespace ringsim
