// NCCL's INFO lines of an nccl-tests log (NCCL_DEBUG=INFO) as NcclRunFacts (../nccl_run_facts.h).
#pragma once

#include "../nccl_run_facts.h"
#include "../text_table.h"

#include <vector>

namespace ringsim {

// LINES: NCCL's log lines ("HOST:PID:TID [DEV] NCCL INFO ..."); other lines are ignored. Never throws:
// a line NCCL printed differently from the shapes known is not a fact.
NcclRunFacts read_nccl_info_lines(const std::vector<TextLine>& lines);

}  // namespace ringsim
