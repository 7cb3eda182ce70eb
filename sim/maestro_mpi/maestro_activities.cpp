// The one file that reads SimGrid's private headers (ActorImpl's public member activities_, and the
// network model's communicate with an activity of the engine's own): they come from the Debian
// source of the installed version (tools/bootstrap.sh), and the build checks that the installed
// SimGrid is 3.32 (sim/maestro_mpi/CMakeLists.txt). SimGrid 3.34 replaced the list by a set, which
// makes keep_out_of_maestro_list unnecessary there.
#include "maestro_activities.h"

#include <simgrid/version.h>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <src/kernel/activity/ActivityImpl.hpp>
#include <src/kernel/actor/ActorImpl.hpp>
#include <src/kernel/resource/NetworkModel.hpp>

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

// The kernel activity SimGrid's main loop posts when the transfer's action is done
// (EngineImpl::handle_ended_actions); it has no actor, so SimGrid completes no s4u interface for it.
class NetworkTransfer::Activity final : public simgrid::kernel::activity::ActivityImpl {
 public:
  explicit Activity(TransferEnd& end) : end_(end) {}

  void post() override {
    // As CommImpl::post: the end is told (and the ranks it wakes start their transfers) while the
    // ended action is still in the max-min system, then the action is released; released first, the
    // system's lazy updates run in another order and times move (by 2e-4 on an 8 x 4 nccl_ring).
    simgrid::kernel::resource::Action* ended = surf_action_;
    surf_action_ = nullptr;  // the transfer may start again from the end's callback
    end_.transfer_ended();
    ended->unref();
  }
  void set_exception(simgrid::kernel::actor::ActorImpl*) override {}
  void finish() override {}

  // As CommImpl::start: the network model of ZONE, the source's zone. Its zone owns it; the last one
  // looked up is kept (every host of a ringsim platform is in one zone) to spare a shared_ptr copy.
  simgrid::kernel::resource::NetworkModel& model_of(simgrid::kernel::routing::NetZoneImpl* zone) {
    if (zone != zone_) {
      zone_ = zone;
      model_ = zone->get_network_model().get();
    }
    return *model_;
  }

 private:
  TransferEnd& end_;
  simgrid::kernel::routing::NetZoneImpl* zone_ = nullptr;
  simgrid::kernel::resource::NetworkModel* model_ = nullptr;
};

NetworkTransfer::NetworkTransfer(TransferEnd& end) : activity_(new Activity(end)) { intrusive_ptr_add_ref(activity_); }

NetworkTransfer::~NetworkTransfer() { intrusive_ptr_release(activity_); }

void NetworkTransfer::start(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, double bytes_per_second) {
  if (activity_->surf_action_ != nullptr) throw std::logic_error("a network transfer started again before it ended");
  // As CommImpl::start: a rate of -1 for none.
  auto* action = activity_->model_of(from->get_netpoint()->get_englobing_zone())
                     .communicate(from, to, bytes, bytes_per_second > 0 ? bytes_per_second : -1.0);
  action->set_activity(activity_);
  activity_->surf_action_ = action;
  if (action->get_state() == simgrid::kernel::resource::Action::State::FAILED)
    throw std::runtime_error("a network transfer failed to start (a link is off)");
}

}  // namespace ringsim::maestro_engine
