// MPI's environment calls, SMPI's computation call and the untimed collectives' meeting point
// (collective_meeting.h) on the maestro engine.
#include "../s4u_mpi/collective_meeting.h"
#include "maestro_world.h"
#include "../s4u_mpi/mpi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace ringsim::maestro_engine;

// Eager sends still in flight need no one: their comms complete without the rank.
int MPI_Finalize() { return MPI_SUCCESS; }

int MPI_Comm_rank(MPI_Comm, int* rank) {
  *rank = world().current_rank();
  return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm, int* size) {
  *size = world().size();
  return MPI_SUCCESS;
}

int MPI_Get_processor_name(char* name, int* length) {
  std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", world().host(world().current_rank())->get_cname());
  *length = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

double MPI_Wtime() {
  MaestroWorld& w = world();
  return w.read_clock(w.current_rank());
}

// No actor to put to sleep: the time is owed and slept at once on the engine's timer.
void ringsim_engine_sleep(double seconds) {
  MaestroWorld& w = world();
  w.sleep(w.current_rank(), seconds);
}

void ringsim_engine_pace_sends(double bytes_per_second) {
  MaestroWorld& w = world();
  w.matching().send_shape(w.current_rank()).pace_Bps = bytes_per_second;
}

void ringsim_engine_scale_sends(double wire_per_byte) {
  MaestroWorld& w = world();
  w.matching().send_shape(w.current_rank()).wire_per_byte = wire_per_byte;
}

bool ringsim_engine_delay_deliveries(double seconds) {
  MaestroWorld& w = world();
  w.matching().send_shape(w.current_rank()).delivery_delay_s = seconds;
  return true;
}

void smpi_execute_flops(double flops) {
  MaestroWorld& w = world();
  w.compute(w.current_rank(), flops);
}

namespace ringsim::s4u_engine {

int collective_rank() { return world().settled_rank(); }
int collective_size() { return world().size(); }
std::vector<const void*>& collective_deposits() { return world().deposits(); }
void collective_meet() { world().meet(); }

}  // namespace ringsim::s4u_engine
