// A measured trace grouped the way the simulator runs it: one case per placement, and the median
// measured time of each size.
#pragma once

#include "../model/scenario.h"
#include "measured_trace.h"
#include "run_placement.h"

#include <map>
#include <string>
#include <vector>

namespace ringsim {

struct MeasuredCase {
  PlacementSpec placement;
  std::map<std::uint64_t, double> median_time_s;  // by bytes
};

struct GroupedTrace {
  std::vector<MeasuredCase> cases;
  std::vector<std::uint64_t> sizes;    // every simulable size (>= 4 bytes, multiple of 4), ascending
  std::vector<std::uint64_t> skipped;  // sizes that are not float32 buffers (e.g. IMB's 0 bytes)
  // The placement the trace's header implies (nccl-tests), and whether it was used because the
  // scenario gives none. Unset when the trace's points carry placements or its header lists no ranks.
  std::optional<RunPlacement> from_header;
  bool placement_from_header = false;
  Collective collective = Collective::all_reduce;  // the trace's
};

// Points that carry a placement (ringsim traces) keep it; the others take the scenario's placement,
// which must then be exactly one and agree with the trace's rank count, or, when the scenario gives
// none, the placement the trace's header implies (nccl-tests: ranks per host, in host order). Throws
// InputError naming TRACE_FILE or the scenario when they disagree or no placement can be had.
// SELECT, when not empty, keeps only the placements it names ("4-2-2/block", "4-3-1/cyclic"; a
// placement without "/order" means block).
GroupedTrace group_trace(const MeasuredTrace& trace, const Scenario& scenario, const std::string& trace_file,
                         const std::optional<int>& ranks_filter, const std::vector<std::string>& select = {});

// Splits "4-2-2/block,4-3-1/cyclic" into labels, checking each; throws InputError naming OPTION.
std::vector<std::string> parse_selection(const std::string& option, const std::string& text);

}  // namespace ringsim
