// The report of a scenario that compares one algorithm across placements or rank orders: the question
// and the findings `ringsim run` wrote, in words; one chart of each case's time relative to the first
// case, per variant side by side, with the bottleneck each names; and the ring drawn over the nodes.
#pragma once

#include "report_figures.h"
#include "report_page.h"
#include "ring_bottlenecks.h"

#include <cstdint>
#include <string>

namespace ringsim {

// The question and the findings of RESULTS, the answers across variants first, then per variant.
ReportLead report_lead(const ResultsDocument& results);

// Whether every row of RESULTS runs one of NCCL's algorithms: its page draws NCCL's channels over the
// NICs first and names what binds each case.
bool runs_nccl_only(const ResultsDocument& results);

// Whether RESULTS compare cases of one algorithm (several placements or orders), or NCCL's algorithms
// across placements: the page then answers the scenario's question instead of teaching the algorithms.
bool compares_one_algorithm(const ResultsDocument& results);

// The chart of the answer at BYTES: each case's time over the first case's, a panel per variant, the
// bottleneck on hover and in the table under it (RINGS: null when no topology is known, and
// BOTTLENECK_NOTE says how to give one).
ReportSection answer_section(const ResultsDocument& results, std::uint64_t bytes, const RingCases* rings,
                             const std::string& bottleneck_note);

// The ring of each case over the nodes, a drawing per variant; left out with BOTTLENECK_NOTE without RINGS.
ReportSection ring_pictures_section(const ResultsDocument& results, std::uint64_t bytes, const RingCases* rings,
                                    const std::string& bottleneck_note);

}  // namespace ringsim
