// `ringsim analyze SCENARIO.json`: for every placement and collective of a scenario, the bytes one call
// moves over each link direction (collective_traffic.h), printed as a table per case with the busiest
// link of each role, and the same as JSON.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ringsim {

// Whether FILE is a scenario (a JSON object naming its "topology") rather than a topology or platform.
bool names_a_scenario(const std::filesystem::path& file);

// Prints the tables at SIZE (else the scenario's largest size) and writes JSON_FILE when given.
// Throws InputError on a bad scenario or a placement that does not fit its platform.
void analyze_scenario_traffic(const std::filesystem::path& scenario_file, std::optional<std::uint64_t> size,
                              const std::optional<std::string>& json_file);

}  // namespace ringsim
