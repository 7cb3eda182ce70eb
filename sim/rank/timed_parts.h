// Parts of a collective that progress together within one rank, as NCCL's thread blocks do: each
// runs until it waits for a request or for a time (its thread block's own work on a slice), and the
// rank waits for whichever is first. Written once for nccl_ring's channels and nccl_tree's halves.
#pragma once

#include "engine_probes.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace ringsim {

// What a part waits for: a request, a time (its thread block's handshake, pace or hop), or nothing (done).
struct Blocked {
  MPI_Request* request = nullptr;
  double until_s = -1;
  bool done() const { return request == nullptr && until_s < 0; }
};

// Advances every part of PARTS whose time has come by NOW_S; whether any had.
template <typename Part>
bool advance_due(std::vector<Part>& parts, std::vector<Blocked>& blocked, double now_s) {
  bool woke = false;
  for (std::size_t c = 0; c < parts.size(); ++c)
    if (blocked[c].until_s >= 0 && blocked[c].until_s <= now_s) blocked[c] = parts[c].advance(now_s), woke = true;
  return woke;
}

// Runs PARTS to the end. A Part has Blocked advance(double now_s) (runs until it must wait; NOW_S: the
// simulated time, when its block's time may be due) and bool paced() (whether it may wait for a time).
template <typename Part>
void run_together(std::vector<Part>& parts) {
  // A part in its thread block's handshake or pace waits for a time. ringsim's engines wait for the
  // first request or that time (wait_any_until). MPI has no wait with a deadline, so under SMPI the
  // rank sleeps until the earliest of those times ends and tests its requests on waking: a slice that
  // arrived on another part meanwhile is taken as arrived in the middle of that sleep (at most half a
  // slice's block time off either way, where polling more often would multiply the simulation's
  // events). The clock is MPI_Wtime on purpose: its smpi/wtime sleep lets the completions of the same
  // instant land before the test; a free read of SimGrid's clock missed them and moved the IB
  // fixture's 8 MiB by 2.3%.
  const bool timed = std::any_of(parts.begin(), parts.end(), [](const Part& c) { return c.paced(); });
  std::vector<Blocked> blocked(parts.size());
  std::vector<MPI_Request> waiting(parts.size());
  const double start_s = timed ? MPI_Wtime() : 0;
  for (std::size_t c = 0; c < parts.size(); ++c) blocked[c] = parts[c].advance(start_s);
  double slept_from_s = -1;  // the start of the sleep just ended, while its arrivals are taken up
  for (;;) {
    double earliest_s = std::numeric_limits<double>::infinity();
    bool any = false;
    for (std::size_t c = 0; c < parts.size(); ++c) {
      waiting[c] = blocked[c].request != nullptr ? *blocked[c].request : MPI_REQUEST_NULL;
      if (blocked[c].until_s >= 0) earliest_s = std::min(earliest_s, blocked[c].until_s);
      any = any || !blocked[c].done();
    }
    if (!any) break;
    const int count = static_cast<int>(waiting.size());
    int index = MPI_UNDEFINED;
    if (std::isinf(earliest_s)) {
      MPI_Waitany(count, waiting.data(), &index, MPI_STATUS_IGNORE);
      slept_from_s = -1;
    } else if (const std::optional<int> first = wait_any_until(count, waiting.data(), earliest_s)) {
      index = *first >= 0 ? *first : MPI_UNDEFINED;
      slept_from_s = -1;
    } else {
      int flag = 0;
      MPI_Testany(count, waiting.data(), &index, &flag, MPI_STATUS_IGNORE);
      if (!flag) index = MPI_UNDEFINED;
    }
    const double now_s = timed ? MPI_Wtime() : 0;
    if (index != MPI_UNDEFINED) {
      *blocked[index].request = MPI_REQUEST_NULL;
      blocked[index] = parts[index].advance(slept_from_s >= 0 ? 0.5 * (slept_from_s + now_s) : now_s);
      continue;
    }
    slept_from_s = -1;
    if (advance_due(parts, blocked, now_s)) continue;
    if (sleep_simulated(earliest_s - now_s)) {
      slept_from_s = now_s;
    } else {
      for (std::size_t c = 0; c < parts.size(); ++c)  // a real MPI: no simulated time to wait for
        if (blocked[c].until_s >= 0) blocked[c] = parts[c].advance(std::numeric_limits<double>::infinity());
    }
  }
}

}  // namespace ringsim
