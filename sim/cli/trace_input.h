// The measured trace of `validate` and `calibrate`: --measured, --format, --ranks and --select,
// read and grouped into cases the same way for both.
#pragma once

#include "../validate/trace_learning.h"
#include "command_line.h"

namespace ringsim {


// --collective NAME: the nccl-tests program to read from a log of several (default all_reduce_perf);
// which run was read is one stdout line when the log holds several.
// Throws UsageError when --measured is missing, InputError for unreadable or mismatched traces.
// IMB traces hold several process counts: without --ranks, the scenario placement's count is used.
// COLLECTIVE, when given, is read instead of --collective's (a suite's runs one by one).
TraceInput read_trace_input(const ParsedArguments& args, const Scenario& scenario, const std::string& command,
                            const std::optional<std::string>& collective = std::nullopt);

// Every placement read must fit LAYOUT (the scenario's topology, with what the log filled in): InputError
// naming the trace otherwise.
void check_trace_placements_fit(const TraceInput& input, const Scenario& scenario, const ClusterLayout& layout);

// One stdout line when the placement came from the trace's header ("# placement inferred from the
// trace's header: 4-4 block: ..."); unless QUIET, a note on stderr when the header implies another
// placement than the scenario's.
void print_placement_source(const TraceInput& input, const Scenario& scenario, bool quiet);

}  // namespace ringsim
