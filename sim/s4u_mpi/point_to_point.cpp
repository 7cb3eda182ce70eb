// MPI's point-to-point calls with SMPI's timing: a transfer starts once both the send and the
// matching receive are posted (SimGrid's mailbox rendezvous); a send (MPI_Send or MPI_Isend) below
// the detached threshold is complete for its sender at once (an EagerSend, channel.h), a larger one
// when its transfer ends.
#include "datatypes.h"
#include "engine_sends.h"
#include "mpi.h"
#include "rank_world.h"
#include "request.h"
#include "shared_buffers.h"
#include "send_settings.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace ringsim::s4u_engine {
namespace {

// What a message without data carries: S4U tells a send from a receive by a non-null payload.
char no_data_marker;
void* const kNoData = &no_data_marker;

// The data travels as a private copy taken when the send is posted, as MPI allows; shared buffers
// send nothing. The receiver frees the copy.
void* copy_for_sending(const void* buffer, std::size_t bytes) {
  if (bytes == 0 || is_shared(buffer)) return kNoData;
  void* copy = std::malloc(bytes);
  std::memcpy(copy, buffer, bytes);
  return copy;
}

// Posts a send. An eager one (below the detached threshold, and not SYNCHRONOUS: MPI_Ssend, MPI_Issend)
// is started and held by the world until its receiver has it: the result is then nullptr. Otherwise the
// result is the comm, not yet started.
simgrid::s4u::CommPtr post_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag,
                                bool synchronous) {
  RankWorld& w = world();
  const std::size_t bytes = static_cast<std::size_t>(count) * datatype_size(type);
  const int me = w.settled_rank();
  w.retire_delivered(me);
  Channel& channel = w.channel(me, destination, tag);
  const SendShape& shape = w.send_shape(me);
  simgrid::s4u::CommPtr comm = channel.mailbox->put_init(copy_for_sending(buffer, bytes), shape.payload(bytes));
  if (shape.pace_Bps > 0) comm->set_rate(shape.pace_Bps);
  if (synchronous || bytes >= detached_send_threshold()) {
    channel.posted_send(nullptr);
    return comm;
  }
  auto* eager = new EagerSend{comm};
  channel.posted_send(eager);
  w.hold_eager_send(me, eager);
  comm->start();
  return nullptr;
}

void finish(Request* request, MPI_Status* status) {
  if (request->channel != nullptr) request->channel->received(request->receive_number);
  if (request->delivered != nullptr && request->delivered != kNoData) {
    if (request->receive_buffer != nullptr && !is_shared(request->receive_buffer))
      std::memcpy(request->receive_buffer, request->delivered, request->receive_bytes);
    std::free(request->delivered);
  }
  if (status != nullptr) *status = {request->source, request->tag, MPI_SUCCESS};
  delete request;
}

// The comms of REQUESTS' active requests, with their positions. An eager send is already complete:
// it is finished at once, and the return value is its position (-1 when there is none).
int finish_eager_or_collect(int count, MPI_Request* requests, MPI_Status* status, std::vector<simgrid::s4u::CommPtr>& comms,
                            std::vector<int>& positions) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != MPI_REQUEST_NULL) {
      if (requests[i]->comm == nullptr) {
        finish(requests[i], status);
        requests[i] = MPI_REQUEST_NULL;
        return i;
      }
      comms.push_back(requests[i]->comm);
      positions.push_back(i);
    }
  return -1;
}

}  // namespace

// MPI's sends over this engine (engine_sends.h).
int start_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Request* request,
               bool synchronous) {
  auto* pending = new Request;
  pending->comm = post_send(buffer, count, type, destination, tag, synchronous);  // nullptr (eager): complete
  if (pending->comm != nullptr) pending->comm->start();
  *request = pending;
  return MPI_SUCCESS;
}

int blocking_send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, bool synchronous) {
  simgrid::s4u::CommPtr comm = post_send(buffer, count, type, destination, tag, synchronous);
  if (comm != nullptr) comm->wait();  // starts and waits in one simcall
  return MPI_SUCCESS;
}

}  // namespace ringsim::s4u_engine

using namespace ringsim::s4u_engine;

int MPI_Irecv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm, MPI_Request* request) {
  RankWorld& w = world();
  auto* pending = new Request;
  pending->receive_buffer = buffer;
  pending->receive_bytes = static_cast<std::size_t>(count) * datatype_size(type);
  pending->source = source;
  pending->tag = tag;
  Channel& channel = w.channel(source, w.settled_rank(), tag);
  pending->channel = &channel;
  pending->receive_number = channel.post_receive();
  pending->comm = channel.mailbox->get_async(&pending->delivered);
  *request = pending;
  return MPI_SUCCESS;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (*request == MPI_REQUEST_NULL) return MPI_SUCCESS;
  world().settled_rank();
  if ((*request)->comm != nullptr) (*request)->comm->wait();
  finish(*request, status);
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status) {
  world().settled_rank();
  std::vector<simgrid::s4u::CommPtr> comms;
  std::vector<int> positions;
  if (const int eager = finish_eager_or_collect(count, requests, status, comms, positions); eager >= 0) {
    *index = eager;
    return MPI_SUCCESS;
  }
  if (comms.empty()) {
    *index = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  const auto done = static_cast<std::size_t>(simgrid::s4u::Comm::wait_any(comms));
  *index = positions[done];
  finish(requests[*index], status);
  requests[*index] = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int MPI_Testany(int count, MPI_Request* requests, int* index, int* flag, MPI_Status* status) {
  world().settled_rank();
  std::vector<simgrid::s4u::CommPtr> comms;
  std::vector<int> positions;
  *flag = 1;
  *index = finish_eager_or_collect(count, requests, status, comms, positions);
  if (*index >= 0) return MPI_SUCCESS;
  *index = MPI_UNDEFINED;
  if (comms.empty()) return MPI_SUCCESS;  // as MPI: no active request, flag true, index undefined
  const ssize_t done = simgrid::s4u::Comm::test_any(comms);
  if (done < 0) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  *index = positions[static_cast<std::size_t>(done)];
  finish(requests[*index], status);
  requests[*index] = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int ringsim_engine_wait_any_until(int count, MPI_Request* requests, double deadline_s) {
  world().settled_rank();
  std::vector<simgrid::s4u::CommPtr> comms;
  std::vector<int> positions;
  if (const int eager = finish_eager_or_collect(count, requests, MPI_STATUS_IGNORE, comms, positions); eager >= 0) return eager;
  const double left_s = deadline_s - simgrid::s4u::Engine::get_clock();
  if (comms.empty()) {
    if (left_s > 0) simgrid::s4u::this_actor::sleep_for(left_s);
    return MPI_UNDEFINED;
  }
  const ssize_t done = left_s > 0 ? simgrid::s4u::Comm::wait_any_for(comms, left_s) : simgrid::s4u::Comm::test_any(comms);
  if (done < 0) return MPI_UNDEFINED;
  const int index = positions[static_cast<std::size_t>(done)];
  finish(requests[index], MPI_STATUS_IGNORE);
  requests[index] = MPI_REQUEST_NULL;
  return index;
}
