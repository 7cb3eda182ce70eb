// The state the maestro engine shares between its rank fibers: each rank's host, the time each rank
// owes, message matching, and the meeting point of the untimed collectives. Everything runs in
// SimGrid's maestro, one fiber at a time, so this state needs no locks; rank code itself
// (sim/rank/) still keeps no mutable globals.
#pragma once

#include "message_matching.h"
#include "rank_fibers.h"

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Host.hpp>

#include <vector>

namespace ringsim::maestro_engine {

// An execution a rank started in SimGrid, which the maestro's completion callback finishes.
class Awaited {
 public:
  virtual ~Awaited() = default;
  // Called once, in the maestro, when ACTIVITY (this one's) has completed.
  virtual void finished(simgrid::s4u::ActivityPtr activity) = 0;
};

class MaestroWorld {
 public:
  // HOST_OF_RANK: the hostfile's host of every rank, in rank order. WTIME_SLEEP: SMPI's smpi/wtime.
  MaestroWorld(std::vector<simgrid::s4u::Host*> host_of_rank, double wtime_sleep, RankFibers& fibers);
  ~MaestroWorld();
  MaestroWorld(const MaestroWorld&) = delete;
  MaestroWorld& operator=(const MaestroWorld&) = delete;

  int size() const { return static_cast<int>(host_of_rank_.size()); }
  simgrid::s4u::Host* host(int rank) const { return host_of_rank_[static_cast<std::size_t>(rank)]; }
  int current_rank() const { return fibers_.current(); }
  RankFibers& fibers() { return fibers_; }
  MessageMatching& matching() { return matching_; }

  // The requests of MPI_Isend and MPI_Irecv: fresh ones, and their return once waited for (a request
  // is allocated once and reused).
  Request* new_request();
  void recycle(Request* request) { spare_requests_.push_back(request); }

  // Suspends the calling rank until REQUEST is complete (at once if it is).
  void wait(Request& request);

  // MPI_Wtime: the clock plus the rank's owed time; the call owes SMPI's smpi/wtime sleep.
  double read_clock(int rank);
  // Before every other MPI call: the owed time is slept in one go (a SimGrid timer wakes the rank).
  void settle_clock(int rank);
  // A timed sleep of the rank: owed, then slept at once.
  void sleep(int rank, double seconds);
  // smpi_execute_flops: owed as flops / speed when the rank is alone on its host; a host shared by
  // several ranks shares its CPU, so there it is a SimGrid execution as under SMPI.
  void compute(int rank, double flops);
  // The calling rank, after settling its clock: how every timed MPI call begins.
  int settled_rank() {
    const int rank = current_rank();
    settle_clock(rank);
    return rank;
  }

  // The untimed collectives: every rank deposits a pointer, all meet, then read.
  std::vector<const void*>& deposits() { return deposits_; }
  void meet();

  // SimGrid's completion callback (every execution the engine starts carries its Awaited; messages
  // end through their own transfers): finishes it and runs the ranks it woke. Finished executions
  // are released at the next completion, once SimGrid no longer touches them (it still does after
  // this callback returns).
  void on_completion(const simgrid::s4u::Activity& activity);
  // Whether every rank has returned from its program.
  bool all_finished() const { return fibers_.unfinished() == 0; }

 private:
  std::vector<simgrid::s4u::Host*> host_of_rank_;
  double wtime_sleep_;
  RankFibers& fibers_;
  std::vector<simgrid::s4u::ActivityPtr> graveyard_;
  MessageMatching matching_;
  std::vector<double> owed_sleep_;    // per rank
  std::vector<char> alone_on_host_;   // per rank
  std::vector<double> host_speed_;    // per rank: its host's flop rate, read once
  std::vector<const void*> deposits_;
  std::vector<Request*> spare_requests_;
  // The ranks that sleep until DATE (settle_clock); the last one set can take more sleepers.
  struct Alarm {
    double date;
    std::vector<Request*> sleepers;
  };
  Alarm* open_alarm_ = nullptr;
  std::vector<Request*> meeting_;     // the ranks waiting at the meeting point
};

// The world of the running simulation (set by the runner before the ranks start).
MaestroWorld& world();
void set_world(MaestroWorld* world);

}  // namespace ringsim::maestro_engine
