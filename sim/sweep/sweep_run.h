// Running some cases of an expanded sweep (sweep_spec.h): each topology x variant planned as a
// scenario holding only the placements these cases need, every case prepared and run as `ringsim run`
// runs it, `jobs` at a time, and its rows of the results JSON returned in case order.
#pragma once

#include "../model/sweep_spec.h"
#include "../platform/cluster_layout.h"
#include "../results/results_document.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct SweepCasesOutcome {
  std::optional<std::vector<ResultRow>> rows;  // nullopt when a case failed
  std::vector<std::string> failures;   // one message per failed case, with the end of its log
};

// Rows of the results (per size) of CASES (indices into SWEEP.cases), in that
// order, each with its case index, its variant when the sweep has variants and its topology when it
// has several topologies. ON_CASE_DONE(ok) is called as each case ends. PLATFORMS parallel to
// SPEC.topologies. Throws Interrupted (process_pool.h) after killing the cases on SIGINT/SIGTERM.
SweepCasesOutcome run_sweep_cases(const SweepSpec& spec, const ExpandedSweep& sweep, const std::vector<Platform>& platforms,
                                  const std::vector<std::size_t>& cases, int jobs,
                                  const std::function<void(bool ok)>& on_case_done);

// Rough wall time of one case on one core, for `sweep plan`: a start-up cost, a cost per rank and
// size, and a cost per simulated byte on the wire (2 x size x ranks per call, calls = iterations +
// warm-up, each size). Measured on a 2-core machine (docs/sweeps.md); within ~2x.
double estimated_case_seconds(int ranks, const std::vector<std::uint64_t>& sizes, int calls_per_size);

}  // namespace ringsim
