// What `run` and `measure` print and save once their cases are done.
#pragma once

#include "../model/scenario.h"
#include "case_results.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// Prints the header, one table per case and the comparison; writes DOCUMENT (the results JSON)
// atomically to JSON_PATH when given. Returns 1 when any element was wrong, else 0.
int print_and_save_results(const Scenario& scenario, const ClusterLayout& layout, const std::string& header,
                           const std::vector<CaseResult>& results, const nlohmann::json& document,
                           const std::optional<std::string>& json_path);

// Rejects an output path whose directory does not exist, before any work starts.
void check_output_file(const std::string& option, const std::string& file);

}  // namespace ringsim
