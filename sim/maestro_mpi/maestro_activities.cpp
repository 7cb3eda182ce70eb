// The one file that reads SimGrid's private headers (ActorImpl's public member activities_, and
// CommImpl::set_rate): they come from the Debian source of the installed version (tools/bootstrap.sh),
// and the build checks that the installed SimGrid is 3.32 (sim/maestro_mpi/CMakeLists.txt). SimGrid
// 3.34 replaced the list by a set, which makes keep_out_of_maestro_list unnecessary there.
#include "maestro_activities.h"

#include <simgrid/version.h>

#include <src/kernel/activity/ActivityImpl.hpp>
#include <src/kernel/activity/CommImpl.hpp>
#include <src/kernel/actor/ActorImpl.hpp>

#include <stdexcept>

static_assert(SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32,
              "the maestro engine relies on SimGrid 3.32's maestro activity list (maestro_activities.h)");

namespace ringsim::maestro_engine {

void keep_out_of_maestro_list(const simgrid::s4u::Activity& activity) {
  auto& listed = simgrid::kernel::actor::ActorImpl::self()->activities_;
  if (listed.empty() || listed.back().get() != activity.get_impl())
    throw std::logic_error("the maestro's activity list does not end with the activity just created: "
                           "SimGrid's internals differ from 3.32's");
  listed.pop_back();  // the engine's own ActivityPtr keeps the activity alive
}

void bound_rate(simgrid::s4u::Comm& comm, double bytes_per_second) {
  static_cast<simgrid::kernel::activity::CommImpl*>(comm.get_impl())->set_rate(bytes_per_second);
}

}  // namespace ringsim::maestro_engine
