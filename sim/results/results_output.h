// What `run` and `measure` print once their cases are done (results_document.h saves the JSON).
#pragma once

#include "../model/scenario.h"
#include "case_results.h"

#include <string>
#include <vector>

namespace ringsim {

// Prints the header, one table per case and the comparison. Returns 1 when any element was wrong
// (and says so on standard error), else 0.
int print_results(const Scenario& scenario, const ClusterLayout& layout, const std::string& header,
                  const std::vector<CaseResult>& results);

// Rejects an output path whose directory does not exist, before any work starts.
void check_output_file(const std::string& option, const std::string& file);

}  // namespace ringsim
