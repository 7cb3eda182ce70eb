#include "maestro_world.h"

#include "maestro_activities.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include <unordered_map>

namespace ringsim::maestro_engine {
namespace {

MaestroWorld* current_world = nullptr;

// A computation on a host shared by several ranks: its rank waits on REQUEST.
class Computation final : public Awaited {
 public:
  Computation(Request& request, MessageMatching& matching, std::vector<simgrid::s4u::ActivityPtr>& graveyard)
      : request_(request), matching_(matching), graveyard_(graveyard) {}
  void finished(simgrid::s4u::ActivityPtr activity) override {
    graveyard_.push_back(std::move(activity));
    matching_.complete(request_);
  }

 private:
  Request& request_;
  MessageMatching& matching_;
  std::vector<simgrid::s4u::ActivityPtr>& graveyard_;
};

}  // namespace

MaestroWorld::MaestroWorld(std::vector<simgrid::s4u::Host*> host_of_rank, double wtime_sleep, RankFibers& fibers)
    : host_of_rank_(std::move(host_of_rank)),
      wtime_sleep_(wtime_sleep),
      fibers_(fibers),
      matching_(host_of_rank_, fibers),
      owed_sleep_(host_of_rank_.size(), 0.0),
      alone_on_host_(host_of_rank_.size(), 1),
      host_speed_(host_of_rank_.size()),
      deposits_(host_of_rank_.size()) {
  std::unordered_map<simgrid::s4u::Host*, int> ranks_on;
  for (simgrid::s4u::Host* host : host_of_rank_) ++ranks_on[host];
  for (std::size_t r = 0; r < host_of_rank_.size(); ++r) {
    alone_on_host_[r] = ranks_on[host_of_rank_[r]] == 1 ? 1 : 0;
    host_speed_[r] = host_of_rank_[r]->get_speed();
  }
}

MaestroWorld::~MaestroWorld() {
  for (Request* request : spare_requests_) delete request;
}

Request* MaestroWorld::new_request() {
  if (spare_requests_.empty()) return new Request;
  Request* request = spare_requests_.back();
  spare_requests_.pop_back();
  *request = Request{};
  return request;
}

void MaestroWorld::wait(Request& request) {
  if (request.complete) return;
  request.waiter = current_rank();
  while (!request.complete) fibers_.suspend();
  request.waiter = -1;
}

double MaestroWorld::read_clock(int rank) {
  double& owed = owed_sleep_[static_cast<std::size_t>(rank)];
  const double now = simgrid::s4u::Engine::get_clock() + owed;
  owed += wtime_sleep_;
  return now;
}

void MaestroWorld::settle_clock(int rank) {
  double& owed = owed_sleep_[static_cast<std::size_t>(rank)];
  if (owed == 0) return;
  const double date = simgrid::s4u::Engine::get_clock() + owed;
  owed = 0;
  // Ranks in step owe the same time at the same moment: one timer wakes them all.
  if (open_alarm_ == nullptr || open_alarm_->date != date) {
    auto* alarm = new Alarm{date, {}};
    open_alarm_ = alarm;
    simgrid::kernel::timer::Timer::set(date, [this, alarm] {
      if (open_alarm_ == alarm) open_alarm_ = nullptr;
      for (Request* sleeper : alarm->sleepers) matching_.complete(*sleeper);
      delete alarm;
      fibers_.run_ready();
    });
  }
  Request slept;
  slept.waiter = rank;
  open_alarm_->sleepers.push_back(&slept);
  while (!slept.complete) fibers_.suspend();
}

void MaestroWorld::sleep(int rank, double seconds) {
  owed_sleep_[static_cast<std::size_t>(rank)] += seconds;
  settle_clock(rank);
}

void MaestroWorld::compute(int rank, double flops) {
  if (alone_on_host_[static_cast<std::size_t>(rank)] != 0) {
    owed_sleep_[static_cast<std::size_t>(rank)] += flops / host_speed_[static_cast<std::size_t>(rank)];
    return;
  }
  settle_clock(rank);
  Request computed;
  Computation computation(computed, matching_, graveyard_);
  simgrid::s4u::ExecPtr exec = simgrid::s4u::Exec::init();
  keep_out_of_maestro_list(*exec);
  exec->set_host(host(rank));
  exec->set_flops_amount(flops);
  exec->set_data(static_cast<Awaited*>(&computation));
  exec->start();
  wait(computed);  // the completion callback has put a reference in the graveyard by then
}

void MaestroWorld::meet() {
  if (static_cast<int>(meeting_.size()) + 1 < size()) {
    Request met;
    met.waiter = current_rank();
    meeting_.push_back(&met);
    while (!met.complete) fibers_.suspend();
    return;
  }
  // The last rank to arrive releases the others.
  for (Request* waiting : meeting_) matching_.complete(*waiting);
  meeting_.clear();
}

void MaestroWorld::on_completion(const simgrid::s4u::Activity& activity) {
  graveyard_.clear();
  auto* awaited = activity.get_data<Awaited>();
  if (awaited == nullptr) return;
  awaited->finished(const_cast<simgrid::s4u::Activity*>(&activity));
  fibers_.run_ready();
}

MaestroWorld& world() { return *current_world; }
void set_world(MaestroWorld* world) { current_world = world; }

}  // namespace ringsim::maestro_engine
