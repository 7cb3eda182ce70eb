// The rank program's interface, the same under SMPI and a real MPI: its arguments for a case, and
// the report rank 0 writes.
#pragma once

#include "../model/scenario.h"
#include "../results/case_results.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

// "--algorithm A --sizes ... --iterations K --warmup W --nodes LIST --out REPORT --progress PROGRESS
// [--events EVENTS] [--check-limit 0]": LIST is the node of every rank (sim/rank/rank_nodes.h), so no rank has to ask.
std::vector<std::string> rank_program_arguments(const Scenario& scenario, const SimulationCase& spec,
                                                const std::filesystem::path& report,
                                                const std::filesystem::path& events,
                                                const std::filesystem::path& progress);

// Writes DIR/hostfile, one host per rank in rank order, and returns its path.
std::filesystem::path write_hostfile(const std::filesystem::path& dir, const std::vector<std::string>& hosts);

// Reads rank 0's report; throws std::runtime_error when it is missing or does not match the request.
CaseResult read_case_report(const std::filesystem::path& report_file, const SimulationCase& spec,
                            const std::vector<std::uint64_t>& sizes);

// The last lines of a log, for error messages.
std::string log_tail(const std::filesystem::path& log, std::size_t lines);

}  // namespace ringsim
