// Where a measured run's ranks ran, as a ringsim placement, from the hosts its header lists: ranks
// per host in the order hosts first appear in rank order ("4-4" for ranks 0-3 on A and 4-7 on B).
// Block when each host's ranks are consecutive, cyclic when they were dealt round-robin the way
// ringsim's cyclic order deals them; any other order has no placement.
#pragma once

#include "../model/placement.h"
#include "measured_trace.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct RunPlacement {
  std::optional<PlacementSpec> placement;  // nullopt: see why_not
  std::vector<std::string> hosts;          // in order of first appearance
  int ranks = 0;
  std::string why_not;  // "rank 5 runs on node0 after rank 4 on node1: neither block nor cyclic"
  int line = 0;         // the header line it refers to

  // "4-4 block: 8 ranks on 2 hosts (node0, node1, in order of first appearance)"
  std::string describe() const;
};

// Precondition: RUN lists at least one rank.
RunPlacement placement_of_run(const MeasuredRun& run);

}  // namespace ringsim
