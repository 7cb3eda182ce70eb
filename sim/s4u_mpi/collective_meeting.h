// What the untimed collectives and the barrier (collectives.cpp) ask of the engine that runs the
// ranks. The S4U engine (rank_world.cpp) and the maestro engine (sim/maestro_mpi/) define these.
#pragma once

#include <vector>

namespace ringsim::s4u_engine {

int collective_rank();  // the calling rank, its owed time settled
int collective_size();
std::vector<const void*>& collective_deposits();  // one slot per rank
void collective_meet();  // returns once every rank has called it

}  // namespace ringsim::s4u_engine
