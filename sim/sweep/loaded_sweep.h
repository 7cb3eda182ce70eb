// A sweep file made ready to plan or run (`ringsim sweep plan` and `run` start here).
#pragma once

#include "../model/sweep_spec.h"
#include "../platform/cluster_layout.h"

#include <string>
#include <vector>

namespace ringsim {

// The sweep file read, its platforms loaded, its cases expanded and every variant's model checked
// against its topology: all input errors come out here, before a case runs.
struct LoadedSweep {
  SweepSpec spec;
  std::vector<Platform> platforms;
  ExpandedSweep expanded;
  std::string digest;
};

// FILE loaded; throws InputError naming the file (and the variant) on bad input.
LoadedSweep load_and_expand(const std::string& file);

// The estimated wall time of CASES run one after another (estimated_case_seconds each).
double estimated_cases_seconds(const LoadedSweep& sweep, const std::vector<std::size_t>& cases);

}  // namespace ringsim
