// The flagship report's rack, topologies/seed-rack.json (3 nodes x 4 slots, 10 GbE): the topology most whole-program tests run on.
#pragma once

#include <string>

namespace ringsim::testing {

inline const std::string kSeedRack = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";

}  // namespace ringsim::testing
