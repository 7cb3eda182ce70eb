// Human-readable output of `ringsim run`: one nccl-tests-style table per case, then a comparison of
// every case against the first, size by size.
#pragma once

#include "../model/scenario.h"
#include "case_results.h"

#include <string>
#include <vector>

namespace ringsim {

std::string case_table(const CaseResult& result, const Scenario& scenario, const ClusterLayout& layout);
std::string comparison_table(const std::vector<CaseResult>& results);

}  // namespace ringsim
