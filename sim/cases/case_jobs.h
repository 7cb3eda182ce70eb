// Runs the cases of a scenario as child processes (smpirun or mpirun), prints a progress line per
// finished case and, for a case running longer than a few seconds, its rank 0's progress
// (case_progress.h), and collects the rank reports.
#pragma once

#include "case_report.h"
#include "process_pool.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ringsim {

struct CaseJob {
  SimulationCase spec;
  ChildCommand command;
  std::filesystem::path report;
  std::filesystem::path progress;  // rank 0's progress file (progress_meter.h); empty: none
  std::vector<std::uint64_t> sizes;  // the sizes COMMAND simulates when only part of the case's (size_parts.h); empty: all
  std::size_t case_sizes = 0;  // how many sizes the whole case has, when not those run_case_jobs is given (0)
};

// Results in job order (each job's sizes: its own, else SIZES), or nullopt after printing each failure with the end of its log.
// QUIET: nothing on standard error but failures (no per-case lines, no progress).
std::optional<std::vector<CaseResult>> run_case_jobs(const std::vector<CaseJob>& jobs,
                                                     const std::vector<std::uint64_t>& sizes, int parallel,
                                                     bool quiet, std::string_view done_word);

// "01-4-3-1-cyclic-ring": the case's folder under the work directory.
std::string case_directory_name(std::size_t index, const SimulationCase& spec);

// "case", "cases"
std::string_view plural(std::size_t count, std::string_view one, std::string_view many);

}  // namespace ringsim
