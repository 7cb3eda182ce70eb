// The part of nccl-tests' output before its table that describes the run: the "# nThread T nGpus G"
// line, one "#  Rank  R [Group G] Pid P on HOST device D [bus] GPU" line per rank, and NCCL's version
// ("NCCL version 2.6.4+cuda10.1", or nccl-tests' own "# nccl-tests version ... nccl-library=23003").
#pragma once

#include "../measured_trace.h"
#include "../text_table.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// The run the header describes, or nullopt when it has neither rank lines nor a version. Throws
// InputError "FILE:LINE: ..." when rank lines are malformed, a rank number is missing or listed twice,
// or the rank count disagrees with nThread x nGpus or with NCCL's own "nranks N ... Init COMPLETE".
std::optional<MeasuredRun> read_nccl_tests_header(const std::vector<TextLine>& lines, const std::string& file);

// NCCL's version as the first line of LINES that prints it gives it.
std::optional<std::string> nccl_version_in(const std::vector<TextLine>& lines);

}  // namespace ringsim
