// The ring's bottleneck of each case of a results JSON, named as `ringsim analyze` names it: the
// placement's ring embedded in the topology's routes under the case's model (the results' model, or
// its variant's). The results do not name their topology, so the user gives it (--topology).
#pragma once

#include "placement_ranking.h"

#include <string>

namespace ringsim {

// A namer for rows of RESULTS (read from RESULTS_FILE) on TOPOLOGY_FILE; "" for rows not of the ring.
// Throws InputError naming the file when the topology cannot be read, a model in the results is not
// valid, or (when called) a row's placement does not fit the topology.
BottleneckNamer ring_bottleneck_namer(const std::string& topology_file, const ResultsDocument& results,
                                      const std::string& results_file);

}  // namespace ringsim
