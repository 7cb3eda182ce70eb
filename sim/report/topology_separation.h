// The results of a sweep over several topologies name each row's topology. The report's panels and
// rankings group rows by number of ranks and variant; folding the topology's name into the variant
// keeps the topologies apart in every plot and table without each of them knowing about topologies.
#pragma once

#include "../results/results_document.h"

namespace ringsim {

// When RESULTS' rows name more than one topology: each row's variant becomes "VARIANT, TOPOLOGY" (or
// "TOPOLOGY" without variants), TOPOLOGY the file's stem, or the file as written when two stems match.
void separate_topologies(ResultsDocument& results);

}  // namespace ringsim
