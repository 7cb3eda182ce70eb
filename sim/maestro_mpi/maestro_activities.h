// SimGrid 3.32 files every comm the maestro creates (Comm::sendto_init) and every execution it
// starts in the maestro's activity list, a std::list that each completion walks to remove the
// finished one (CommImpl::finish, ExecImpl::finish): with N ranks in flight, O(N) per message. This
// engine holds every activity it starts itself, so it takes each one off that list at once.
#pragma once

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Comm.hpp>

namespace ringsim::maestro_engine {

// Removes ACTIVITY, just created by the maestro, from the back of the maestro's activity list.
// Throws std::logic_error when the back of the list is another activity (SimGrid changed).
void keep_out_of_maestro_list(const simgrid::s4u::Activity& activity);

// Bounds host-to-host COMM, not yet started, to BYTES_PER_SECOND: s4u::Comm::set_rate refuses a comm
// made by sendto_init(from, to) and its start would not pass the bound on, so it is set on the kernel's.
void bound_rate(simgrid::s4u::Comm& comm, double bytes_per_second);

}  // namespace ringsim::maestro_engine
