// MPI's point-to-point calls on the maestro engine, with SMPI's timing as the S4U engine keeps it
// (docs/engines.md): a transfer starts once both its send and its matching receive are posted; a send
// (MPI_Send or MPI_Isend) below the detached threshold is complete for its sender at once, a larger
// one when its transfer ends. Every call settles the rank's owed time first, where the S4U engine does.
#include "../s4u_mpi/datatypes.h"
#include "../s4u_mpi/engine_sends.h"
#include "maestro_world.h"
#include "../s4u_mpi/mpi.h"
#include "../s4u_mpi/send_settings.h"
#include "../s4u_mpi/shared_buffers.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cstdlib>
#include <cstring>

using namespace ringsim::maestro_engine;
using ringsim::s4u_engine::datatype_size;
using ringsim::s4u_engine::detached_send_threshold;
using ringsim::s4u_engine::is_shared;

namespace {

// The data travels as a private copy taken when the send is posted, as MPI allows; shared buffers
// (values that mean nothing) and empty messages send none.
void* copy_for_sending(const void* buffer, std::size_t bytes) {
  if (bytes == 0 || is_shared(buffer)) return nullptr;
  void* copy = std::malloc(bytes);
  std::memcpy(copy, buffer, bytes);
  return copy;
}

std::size_t bytes_of(int count, MPI_Datatype type) { return static_cast<std::size_t>(count) * datatype_size(type); }

// Posts a send from the calling rank; SEND waits for the transfer unless the send is eager (below the
// detached threshold and not SYNCHRONOUS: MPI_Ssend, MPI_Issend), in which case it is complete at once.
// Returns whether it is eager.
bool post_send(const void* buffer, std::size_t bytes, int destination, int tag, Request& send, bool synchronous) {
  MaestroWorld& w = world();
  const int me = w.settled_rank();
  const bool eager = !synchronous && bytes < detached_send_threshold();
  send.complete = eager;
  w.matching().post_send(me, destination, tag, copy_for_sending(buffer, bytes), bytes, eager ? nullptr : &send);
  return eager;
}

void post_receive(void* buffer, std::size_t bytes, int source, int tag, Request& receive) {
  MaestroWorld& w = world();
  receive.buffer = bytes == 0 || is_shared(buffer) ? nullptr : buffer;
  receive.bytes = bytes;
  receive.source = source;
  receive.tag = tag;
  w.matching().post_receive(w.settled_rank(), &receive);
}

// The first complete request of REQUESTS in index order, or MPI_UNDEFINED.
int first_complete(int count, const MPI_Request* requests) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != MPI_REQUEST_NULL && requests[i]->complete) return i;
  return MPI_UNDEFINED;
}

// Makes RANK (or -1: no one) the rank each active request of REQUESTS wakes; whether there was any.
bool set_waiter(int count, MPI_Request* requests, int rank) {
  bool any = false;
  for (int i = 0; i < count; ++i)
    if (requests[i] != MPI_REQUEST_NULL) requests[i]->waiter = rank, any = true;
  return any;
}

void finish(MPI_Request* request, MPI_Status* status) {
  if (status != nullptr) *status = {(*request)->source, (*request)->tag, MPI_SUCCESS};
  world().recycle(*request);
  *request = MPI_REQUEST_NULL;
}

}  // namespace

// MPI's sends over this engine (engine_sends.h).
int ringsim::s4u_engine::start_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag,
                                    MPI_Request* request, bool synchronous) {
  Request* pending = world().new_request();
  post_send(buffer, bytes_of(count, type), destination, tag, *pending, synchronous);
  *request = pending;
  return MPI_SUCCESS;
}

int ringsim::s4u_engine::blocking_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag,
                                       bool synchronous) {
  Request sent;
  if (!post_send(buffer, bytes_of(count, type), destination, tag, sent, synchronous)) world().wait(sent);
  return MPI_SUCCESS;
}

int MPI_Irecv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm, MPI_Request* request) {
  Request* pending = world().new_request();
  post_receive(buffer, bytes_of(count, type), source, tag, *pending);
  *request = pending;
  return MPI_SUCCESS;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (*request == MPI_REQUEST_NULL) return MPI_SUCCESS;
  MaestroWorld& w = world();
  w.settled_rank();
  w.wait(**request);
  finish(request, status);
  return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status) {
  MaestroWorld& w = world();
  const int me = w.settled_rank();
  // The first complete request in index order; otherwise wait until one completes.
  *index = first_complete(count, requests);
  if (*index == MPI_UNDEFINED) {
    if (!set_waiter(count, requests, me)) return MPI_SUCCESS;
    while ((*index = first_complete(count, requests)) == MPI_UNDEFINED) w.fibers().suspend();
    set_waiter(count, requests, -1);
  }
  finish(&requests[*index], status);
  return MPI_SUCCESS;
}

int MPI_Testany(int count, MPI_Request* requests, int* index, int* flag, MPI_Status* status) {
  world().settled_rank();
  *flag = 1;
  *index = MPI_UNDEFINED;
  bool any = false;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    any = true;
    if (requests[i]->complete) {
      *index = i;
      finish(&requests[i], status);
      return MPI_SUCCESS;
    }
  }
  if (any) *flag = 0;  // as MPI: no active request gives flag true and an undefined index
  return MPI_SUCCESS;
}

// A timer at the deadline wakes the rank unless a request completes first (then the timer is removed).
int ringsim_engine_wait_any_until(int count, MPI_Request* requests, double deadline_s) {
  MaestroWorld& w = world();
  const int me = w.settled_rank();
  int index = first_complete(count, requests);
  if (index == MPI_UNDEFINED && simgrid::s4u::Engine::get_clock() < deadline_s) {
    set_waiter(count, requests, me);
    bool due = false;
    simgrid::kernel::timer::Timer* alarm = simgrid::kernel::timer::Timer::set(deadline_s, [&w, &due, me] {
      due = true;
      w.fibers().wake(me);
      w.fibers().run_ready();
    });
    while ((index = first_complete(count, requests)) == MPI_UNDEFINED && !due) w.fibers().suspend();
    if (!due) alarm->remove();
    set_waiter(count, requests, -1);
  }
  if (index != MPI_UNDEFINED) finish(&requests[index], MPI_STATUS_IGNORE);
  return index;
}
