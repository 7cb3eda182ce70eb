// Sizes and reductions of the engine's MPI datatypes (mpi.h numbers them 0..7).
#pragma once

#include "mpi.h"

#include <cstddef>

namespace ringsim::s4u_engine {

std::size_t datatype_size(MPI_Datatype type);
// destination[i] = op(destination[i], source[i]) for COUNT elements of TYPE.
void reduce_into(void* destination, const void* source, int count, MPI_Datatype type, MPI_Op op);

}  // namespace ringsim::s4u_engine
