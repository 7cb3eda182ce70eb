// MPI's environment calls and SMPI's computation call on the S4U engine.
#include "mpi.h"
#include "rank_world.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <simgrid/s4u.hpp>

using namespace ringsim::s4u_engine;

int MPI_Finalize() {
  RankWorld& w = world();
  w.retire_all(w.settled_rank());  // the eager sends still held
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm, int* rank) {
  *rank = world().current_rank();
  return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm, int* size) {
  *size = world().size();
  return MPI_SUCCESS;
}

int MPI_Get_processor_name(char* name, int* length) {
  const char* host = world().host(world().current_rank())->get_cname();
  std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
  *length = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

// The simulated clock, with SMPI's smpi/wtime sleep owed until the next call (rank_world.h).
double MPI_Wtime() {
  RankWorld& w = world();
  return w.read_clock(w.current_rank());
}

// Every rank is an S4U actor: it sleeps as one.
void ringsim_engine_sleep(double seconds) { simgrid::s4u::this_actor::sleep_for(seconds); }

void ringsim_engine_pace_sends(double bytes_per_second) {
  RankWorld& w = world();
  w.send_shape(w.current_rank()).pace_Bps = bytes_per_second;
}

// A receive's actor waits on its comm, which ends with the transfer: no later delivery to offer.
bool ringsim_engine_delay_deliveries(double) { return false; }

void ringsim_engine_scale_sends(double wire_per_byte) {
  RankWorld& w = world();
  w.send_shape(w.current_rank()).wire_per_byte = wire_per_byte;
}

// As SMPI's smpi_execute_flops: FLOPS at the host's speed from the platform (RankWorld::compute).
void smpi_execute_flops(double flops) {
  RankWorld& w = world();
  w.compute(w.current_rank(), flops);
}
