// What MPI's four sends (common_calls.cpp) ask of the engine that runs the ranks: the S4U engine
// (point_to_point.cpp) and the maestro engine (sim/maestro_mpi/point_to_point.cpp) define these.
#pragma once

#include "mpi.h"

namespace ringsim::s4u_engine {

// MPI_Isend and MPI_Issend (SYNCHRONOUS: never eager, complete once the receiver has the data, as SMPI's).
int start_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Request* request,
               bool synchronous);
// MPI_Send and MPI_Ssend.
int blocking_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, bool synchronous);

}  // namespace ringsim::s4u_engine
