// What each rank puts in its input for a collective, and how many output elements then differ from
// what the collective must give (collectives.h lays the buffers out). Values are small integers, exact
// in float for any rank count, that vary with the element and the rank, so a misplaced piece, block
// or segment is caught.
#pragma once

#include "collective_catalog.h"

#include <cstddef>

namespace ringsim {

void fill_input(Collective collective, int rank, int ranks, std::size_t count, float* input);

// Elements of this rank's output that are wrong; ranks whose output the collective leaves undefined
// (reduce's other than rank 0) count none.
long long wrong_outputs(Collective collective, int rank, int ranks, std::size_t count, const float* output);

}  // namespace ringsim
