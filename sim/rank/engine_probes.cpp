#include "engine_probes.h"

#include <mpi.h>  // SMPI's defines SMPI_SHARED_MALLOC, which tells the two builds apart

#ifdef SMPI_SHARED_MALLOC
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdint>
#include <fstream>
#include <memory>
#endif

namespace ringsim {

#ifdef SMPI_SHARED_MALLOC

std::optional<double> simulated_clock_s() { return simgrid::s4u::Engine::get_clock(); }

bool sleep_simulated(double seconds) {
#ifdef RINGSIM_ENGINE_SLEEP
  ringsim_engine_sleep(seconds);  // ringsim's engines: each sleeps its own way (sim/s4u_mpi/mpi.h)
#else
  simgrid::s4u::this_actor::sleep_for(seconds);
#endif
  return true;
}

std::optional<int> wait_any_until(int count, MPI_Request* requests, double deadline_s) {
#ifdef RINGSIM_ENGINE_WAIT_UNTIL
  const int index = ringsim_engine_wait_any_until(count, requests, deadline_s);
  return index == MPI_UNDEFINED ? -1 : index;
#else
  (void)count, (void)requests, (void)deadline_s;
  return std::nullopt;
#endif
}

bool pace_sends(double bytes_per_second) {
#ifdef RINGSIM_ENGINE_PACE
  ringsim_engine_pace_sends(bytes_per_second);
  return true;
#else
  (void)bytes_per_second;
  return false;
#endif
}

bool scale_sends(double wire_per_byte) {
#ifdef RINGSIM_ENGINE_PACE
  ringsim_engine_scale_sends(wire_per_byte);
  return true;
#else
  (void)wire_per_byte;
  return false;
#endif
}

bool delay_deliveries(double seconds) {
#ifdef RINGSIM_ENGINE_PACE
  return ringsim_engine_delay_deliveries(seconds);
#else
  (void)seconds;
  return false;
#endif
}

bool count_network_messages_until_end(const std::string& file) {
  // The count lives in the callbacks (rank code keeps no mutable globals). SimGrid fires this signal
  // once per network action when it leaves the STARTED state, i.e. once per message: measured, an
  // 8-rank MPI_Allgather gives 56 = 8 x 7 and one MPI_Send gives 1. Comm::on_send/on_start do not fire
  // for SMPI's messages in SimGrid 3.32.
  auto messages = std::make_shared<std::uint64_t>(0);
  simgrid::s4u::Link::on_communication_state_change_cb(
      [messages](simgrid::kernel::resource::NetworkAction&, simgrid::kernel::resource::Action::State previous) {
        if (previous == simgrid::kernel::resource::Action::State::STARTED) ++*messages;
      });
  simgrid::s4u::Engine::on_simulation_end_cb([messages, file] { std::ofstream(file) << *messages << '\n'; });
  return true;
}

#else

std::optional<double> simulated_clock_s() { return std::nullopt; }

bool sleep_simulated(double) { return false; }

std::optional<int> wait_any_until(int, MPI_Request*, double) { return std::nullopt; }

bool pace_sends(double) { return false; }

bool scale_sends(double) { return false; }

bool delay_deliveries(double) { return false; }

bool count_network_messages_until_end(const std::string&) { return false; }

#endif

}  // namespace ringsim
