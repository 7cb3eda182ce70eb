// The rank program's algorithm for a collective and a name (collective_catalog.h).
#pragma once

#include "allreduce.h"
#include "collective_catalog.h"

#include <string_view>

namespace ringsim {

// run == nullptr when COLLECTIVE has no algorithm NAME.
AllreduceAlgorithm find_collective_algorithm(Collective collective, std::string_view name);

}  // namespace ringsim
