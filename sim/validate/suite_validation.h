// `validate` on a suite log: nccl-tests' runs of several collectives one after the other, each compared
// with a simulation of its collective, all simulated as one pool of cases. A collective that no
// algorithm of the scenario's kind has a version of is reported as not simulated, with the reason, and
// is simulated as soon as one is registered (sim/rank/collective_catalog.h).
#pragma once

#include "trace_learning.h"
#include "trace_validation.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// One run of the suite.
struct SuiteRun {
  std::string program;                   // "all_gather_perf", as the log names it
  std::optional<Collective> collective;  // nullopt: a program ringsim does not simulate
  std::optional<TraceInput> input;       // read when its collective is simulated
  std::string algorithm;                 // what simulates it; empty when nothing does
  std::string not_simulated;             // why not, when ALGORITHM is empty
  std::optional<Validation> validation;  // after validate_suite
  ValidationOptions options;             // what VALIDATION was judged with (options_for_trace), after validate_suite

  bool simulated() const { return !algorithm.empty(); }
};

// The algorithm that simulates COLLECTIVE for a scenario simulating ALGORITHM: ALGORITHM itself when it
// has a version of COLLECTIVE; for one of NCCL's algorithms without one, `nccl` (what NCCL runs) when
// that has one; else nullopt, and WHY says so.
std::optional<std::string> suite_algorithm(const std::string& algorithm, Collective collective, std::string& why);

// Simulates every run that has an algorithm, at its placements and sizes, as one pool of cases
// (`jobs` at a time, sizes split across them), then compares each with its measurement
// (compare_with_trace). False when a case failed; InputError when a placement does not fit.
bool validate_suite(const Scenario& scenario, const Platform& platform, std::vector<SuiteRun>& runs,
                    const ValidationOptions& options);

// Whether every simulated run passes and at least one was simulated.
bool suite_passes(const std::vector<SuiteRun>& runs);

}  // namespace ringsim
