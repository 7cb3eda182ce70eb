#include "rank_world.h"

#include "collective_meeting.h"

#include <fmt/format.h>
#include <stdexcept>

namespace ringsim::s4u_engine {
namespace {

RankWorld* current_world = nullptr;

// Ranks and tags each fit in 21 bits (2M ranks; the algorithms use tags below 100).
constexpr int kFieldBits = 21;
constexpr std::uint64_t kFieldLimit = std::uint64_t{1} << kFieldBits;

}  // namespace

RankWorld::RankWorld(std::vector<simgrid::s4u::Host*> host_of_rank)
    : host_of_rank_(std::move(host_of_rank)),
      eager_sends_(host_of_rank_.size()),
      deposits_(host_of_rank_.size()),
      owed_sleep_(host_of_rank_.size(), 0.0),
      send_shape_(host_of_rank_.size()),
      alone_on_host_(host_of_rank_.size(), 1),
      barrier_(simgrid::s4u::Barrier::create(static_cast<unsigned>(host_of_rank_.size()))) {
  std::unordered_map<simgrid::s4u::Host*, int> ranks_on;
  for (simgrid::s4u::Host* host : host_of_rank_) ++ranks_on[host];
  for (std::size_t r = 0; r < host_of_rank_.size(); ++r) alone_on_host_[r] = ranks_on[host_of_rank_[r]] == 1 ? 1 : 0;
}

void RankWorld::bind_actor(long actor_id, int rank) {
  if (actor_id < 0) throw std::logic_error("negative actor id");
  if (rank_of_actor_.size() <= static_cast<std::size_t>(actor_id)) rank_of_actor_.resize(actor_id + 1, -1);
  rank_of_actor_[static_cast<std::size_t>(actor_id)] = rank;
}

int RankWorld::current_rank() const {
  return rank_of_actor_[static_cast<std::size_t>(simgrid::s4u::this_actor::get_pid())];
}

Channel& RankWorld::channel(int source, int destination, int tag) {
  if (tag < 0 || static_cast<std::uint64_t>(tag) >= kFieldLimit)
    throw std::invalid_argument(fmt::format("tag {} outside the S4U engine's range 0..{}", tag, kFieldLimit - 1));
  const std::uint64_t key = (static_cast<std::uint64_t>(destination) << (2 * kFieldBits)) |
                            (static_cast<std::uint64_t>(source) << kFieldBits) | static_cast<std::uint64_t>(tag);
  if (auto it = channels_.find(key); it != channels_.end()) return it->second;
  // by_name is a simcall: other actors run meanwhile and may look up (or add) the same key, so the
  // table gets the channel only once its mailbox exists.
  simgrid::s4u::Mailbox* mailbox = simgrid::s4u::Mailbox::by_name(fmt::format("{}>{}#{}", source, destination, tag));
  Channel& added = channels_[key];
  if (added.mailbox == nullptr) added.mailbox = mailbox;
  return added;
}

void RankWorld::retire_delivered(int rank) {
  std::deque<EagerSend*>& held = eager_sends_[static_cast<std::size_t>(rank)];
  while (!held.empty() && held.front()->delivered) {
    EagerSend* send = held.front();
    held.pop_front();
    send->comm->wait();  // complete already: returns at once
    delete send;
  }
}

void RankWorld::retire_all(int rank) {
  std::deque<EagerSend*>& held = eager_sends_[static_cast<std::size_t>(rank)];
  while (!held.empty()) {
    EagerSend* send = held.front();
    held.pop_front();
    send->comm->wait();
    // Its receiver may not have run since the transfer ended; then it deletes the send.
    if (send->delivered)
      delete send;
    else
      send->sender_gone = true;
  }
}

double RankWorld::read_clock(int rank) {
  double& owed = owed_sleep_[static_cast<std::size_t>(rank)];
  const double now = simgrid::s4u::Engine::get_clock() + owed;
  owed += wtime_sleep_;
  return now;
}

void RankWorld::settle_clock(int rank) {
  double& owed = owed_sleep_[static_cast<std::size_t>(rank)];
  if (owed == 0) return;
  const double seconds = owed;
  owed = 0;
  simgrid::s4u::this_actor::sleep_for(seconds);
}

void RankWorld::compute(int rank, double flops) {
  if (alone_on_host_[static_cast<std::size_t>(rank)] != 0) {
    owed_sleep_[static_cast<std::size_t>(rank)] += flops / host(rank)->get_speed();
    return;
  }
  settle_clock(rank);
  simgrid::s4u::this_actor::execute(flops);
}

RankWorld& world() { return *current_world; }
void set_world(RankWorld* world) { current_world = world; }

}  // namespace ringsim::s4u_engine

// The untimed collectives' view of the S4U engine (collective_meeting.h).
namespace ringsim::s4u_engine {

int collective_rank() { return world().settled_rank(); }
int collective_size() { return world().size(); }
std::vector<const void*>& collective_deposits() { return world().deposits(); }
void collective_meet() { world().meet(); }

}  // namespace ringsim::s4u_engine
