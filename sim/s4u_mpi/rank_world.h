// The state the S4U engine shares between its rank actors: which host each rank runs on, the
// mailboxes that carry point-to-point messages, and the meeting point of the untimed collectives.
// All actors run in one system thread, one at a time, so this state needs no locks; rank code itself
// (sim/rank/) still keeps no mutable globals.
#pragma once

#include "channel.h"
#include "send_settings.h"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace ringsim::s4u_engine {

class RankWorld {
 public:
  // HOST_OF_RANK: the hostfile's host of every rank, in rank order.
  explicit RankWorld(std::vector<simgrid::s4u::Host*> host_of_rank);

  int size() const { return static_cast<int>(host_of_rank_.size()); }
  simgrid::s4u::Host* host(int rank) const { return host_of_rank_[static_cast<std::size_t>(rank)]; }

  // Records that the actor ACTOR_ID runs RANK (called once per rank, before the simulation starts).
  void bind_actor(long actor_id, int rank);
  // The rank of the calling actor: a table lookup, no name or string work.
  int current_rank() const;

  // Messages from SOURCE to DESTINATION with TAG travel through their own mailbox, so that SimGrid's
  // first-come matching on a mailbox is MPI's matching by (source, tag) in posting order. Created on
  // first use, then found by an integer key.
  Channel& channel(int source, int destination, int tag);

  // The eager sends of RANK not yet retired, oldest first. retire_delivered() retires those at the front
  // that have arrived (one immediate wait each); retire_all() waits for every one (the rank's end).
  void hold_eager_send(int rank, EagerSend* send) { eager_sends_[static_cast<std::size_t>(rank)].push_back(send); }
  void retire_delivered(int rank);
  void retire_all(int rank);

  // SMPI's MPI_Wtime sleeps smpi/wtime (1e-8 s) after reading the clock. The engine owes that
  // time instead (WTIME_SLEEP per call, per rank) and sleeps it off in one go before the rank's next
  // MPI call: the same simulated times, one context switch per run of MPI_Wtime calls, not one each.
  void set_wtime_sleep(double seconds) { wtime_sleep_ = seconds; }
  double read_clock(int rank);  // MPI_Wtime
  void settle_clock(int rank);  // before every other call
  // smpi_execute_flops. A rank alone on its host computes at the host's full speed whatever else
  // happens, so its FLOPS are owed time too (flops / speed), paid with the next sleep; a host shared
  // by several ranks shares its CPU, so there the work is an S4U execution as under SMPI.
  void compute(int rank, double flops);
  // How RANK's sends go on the wire (ringsim_engine_pace_sends, ringsim_engine_scale_sends).
  SendShape& send_shape(int rank) { return send_shape_[static_cast<std::size_t>(rank)]; }
  // The calling actor's rank, after settling its clock: how every timed MPI call begins.
  int settled_rank() {
    const int rank = current_rank();
    settle_clock(rank);
    return rank;
  }

  // The untimed collectives (collectives.cpp): every rank deposits a pointer, all meet, then read.
  std::vector<const void*>& deposits() { return deposits_; }
  void meet() { barrier_->wait(); }

 private:
  std::vector<simgrid::s4u::Host*> host_of_rank_;
  std::vector<int> rank_of_actor_;  // indexed by actor id
  std::unordered_map<std::uint64_t, Channel> channels_;
  std::vector<std::deque<EagerSend*>> eager_sends_;  // per rank
  std::vector<const void*> deposits_;
  std::vector<double> owed_sleep_;  // per rank
  std::vector<SendShape> send_shape_;  // per rank
  std::vector<char> alone_on_host_;  // per rank
  double wtime_sleep_ = 0;
  simgrid::s4u::BarrierPtr barrier_;
};

// The world of the running simulation (set by the runner before the ranks start).
RankWorld& world();
void set_world(RankWorld* world);

}  // namespace ringsim::s4u_engine
