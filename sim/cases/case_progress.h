// Rank 0's progress through a running case (sim/rank/progress_meter.h writes it), read and worded for
// the lines `ringsim run` and `measure` print while a long case runs.
#pragma once

#include "../results/case_results.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

// A case's progress is relayed once it has run this long: 3 s, or $RINGSIM_PROGRESS_AFTER seconds
// (tests set 0). Throws InputError when the variable is not a number of seconds.
double progress_after_s();

// "call 3 of 12 (64MiB, size 2 of 3), step 120 of 510, simulated 0.0532 s, 850 steps/s"; empty when
// the file is missing or unreadable (progress is best effort: it never fails a run).
std::string read_case_progress(const std::filesystem::path& file, const std::vector<std::uint64_t>& sizes);


}  // namespace ringsim
