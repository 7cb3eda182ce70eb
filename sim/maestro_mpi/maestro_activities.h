// SimGrid 3.32 files every activity the maestro creates through S4U (an execution here) in the
// maestro's activity list, a std::list that each completion walks to remove the finished one
// (ExecImpl::finish): with N ranks in flight, O(N) per completion. This engine holds every activity
// it starts itself, so it takes each one off that list at once. Its messages do not go through S4U
// at all (NetworkTransfer).
#pragma once

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Host.hpp>

namespace ringsim::maestro_engine {

// Removes ACTIVITY, just created by the maestro, from the back of the maestro's activity list.
// Throws std::logic_error when the back of the list is another activity (SimGrid changed).
void keep_out_of_maestro_list(const simgrid::s4u::Activity& activity);

// Told, in the maestro, that a transfer has ended.
class TransferEnd {
 public:
  virtual ~TransferEnd() = default;
  virtual void transfer_ended() = 0;
};

// One host-to-host transfer at a time, started on SimGrid's network model itself: the same action
// (route, latency, bounds, max-min variable, in the same order) that Comm::sendto_init and start
// create through a CommImpl, without the s4u::Comm, the CommImpl, their signals and reference
// counts. Reusable: it may start again once it has ended.
class NetworkTransfer {
 public:
  explicit NetworkTransfer(TransferEnd& end);
  ~NetworkTransfer();
  NetworkTransfer(const NetworkTransfer&) = delete;
  NetworkTransfer& operator=(const NetworkTransfer&) = delete;

  // BYTES from FROM to TO, at most BYTES_PER_SECOND when positive; the end is told once it has arrived.
  void start(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, double bytes_per_second);

 private:
  class Activity;
  Activity* activity_;  // holds a reference of SimGrid's count, released by the destructor
};

}  // namespace ringsim::maestro_engine
