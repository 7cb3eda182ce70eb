// The only way algorithms touch the network: each wrapper adds to the rank's traffic counts and
// then makes the one plain MPI call it stands for, so counts cannot drift from what is sent. Sends
// are also the steps of rank 0's progress (a clock read, no MPI call: simulated time is untouched).
#include "allreduce.h"

#include <cstdio>
#include <limits>

namespace ringsim {
namespace {

std::uint64_t bytes_of(std::size_t count) { return static_cast<std::uint64_t>(count) * sizeof(float); }

// Messages of 2 GiB and more, a large size's share on few ranks:
// - MPI counts are ints: over 2^31 - 1 floats (8 GiB) a message goes as elements of a larger
//   predefined type (8, 16 or 32 bytes: up to 64 GiB per message). Not a derived type: SMPI packs
//   those into a copy of the whole message. When the count is not a multiple of the element, the last
//   one is rounded up (at most 28 bytes more on the wire, within the buffers' slack, rank_memory.cpp):
//   only where buffers hold no values, whose messages carry no data (SMPI-shared, S4U's shared
//   buffers); a checked message that needs it stops the run.
// - SMPI 3.32 compares a send's size as an int with its detached-send threshold, so from 2 GiB on a
//   send may pass for a small one and be copied whole into a fresh buffer (a 25 GiB run then ran out
//   of memory). A synchronous send (MPI_Ssend, MPI_Issend) is never detached: what SMPI does for
//   every message between its threshold (64 KiB) and 2 GiB.
class WireCount {
 public:
  WireCount(std::size_t count, bool holds_values) {
    constexpr auto kMaxCount = static_cast<std::size_t>(std::numeric_limits<int>::max());
    if (count <= kMaxCount) {
      count_ = static_cast<int>(count);
      return;
    }
    for (MPI_Datatype type : {MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX}) {
      int bytes = 0;
      MPI_Type_size(type, &bytes);
      const std::size_t floats = static_cast<std::size_t>(bytes) / sizeof(float);
      if (floats == 0 || (count + floats - 1) / floats > kMaxCount) continue;
      if (count % floats != 0 && holds_values) break;
      count_ = static_cast<int>((count + floats - 1) / floats);
      type_ = type;
      return;
    }
    std::fprintf(stderr, "ringsim-rank: a message of %zu floats is beyond what this harness sends%s\n", count,
                 holds_values ? " with checked values" : "");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }

  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }
  static bool synchronous(std::size_t count) { return count * sizeof(float) >= (std::size_t{1} << 31); }

 private:
  int count_ = 0;
  MPI_Datatype type_ = MPI_FLOAT;
};

}  // namespace

void AllreduceContext::send(const float* buffer, std::size_t count, int peer, int tag) {
  traffic.sent_bytes += bytes_of(count);
  ++traffic.messages_sent;
  progress.note_step();
  const WireCount wire(count, kernels.hold_values());
  if (WireCount::synchronous(count)) MPI_Ssend(buffer, wire.count(), wire.type(), peer, tag, comm);
  else MPI_Send(buffer, wire.count(), wire.type(), peer, tag, comm);
}

void AllreduceContext::isend(const float* buffer, std::size_t count, int peer, int tag, MPI_Request* request) {
  if (WireCount::synchronous(count)) return issend(buffer, count, peer, tag, request);
  traffic.sent_bytes += bytes_of(count);
  ++traffic.messages_sent;
  progress.note_step();
  const WireCount wire(count, kernels.hold_values());
  MPI_Isend(buffer, wire.count(), wire.type(), peer, tag, comm, request);
}

void AllreduceContext::issend(const float* buffer, std::size_t count, int peer, int tag, MPI_Request* request) {
  traffic.sent_bytes += bytes_of(count);
  ++traffic.messages_sent;
  progress.note_step();
  const WireCount wire(count, kernels.hold_values());
  MPI_Issend(buffer, wire.count(), wire.type(), peer, tag, comm, request);
}

void AllreduceContext::irecv(float* buffer, std::size_t count, int peer, int tag, MPI_Request* request) {
  traffic.recv_bytes += bytes_of(count);
  const WireCount wire(count, kernels.hold_values());
  MPI_Irecv(buffer, wire.count(), wire.type(), peer, tag, comm, request);
}

void AllreduceContext::recv(float* buffer, std::size_t count, int peer, int tag) {
  traffic.recv_bytes += bytes_of(count);
  const WireCount wire(count, kernels.hold_values());
  MPI_Recv(buffer, wire.count(), wire.type(), peer, tag, comm, MPI_STATUS_IGNORE);
}

void AllreduceContext::sendrecv(const float* send_buffer, std::size_t send_count, int destination, float* recv_buffer,
                                std::size_t recv_count, int source, int tag) {
  traffic.sent_bytes += bytes_of(send_count);
  traffic.recv_bytes += bytes_of(recv_count);
  ++traffic.messages_sent;
  progress.note_step();
  const WireCount sent(send_count, kernels.hold_values()), received(recv_count, kernels.hold_values());
  if (WireCount::synchronous(send_count)) {
    MPI_Request receive = MPI_REQUEST_NULL;
    MPI_Irecv(recv_buffer, received.count(), received.type(), source, tag, comm, &receive);
    MPI_Ssend(send_buffer, sent.count(), sent.type(), destination, tag, comm);
    MPI_Wait(&receive, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Sendrecv(send_buffer, sent.count(), sent.type(), destination, tag, recv_buffer, received.count(), received.type(), source,
               tag, comm, MPI_STATUS_IGNORE);
}

}  // namespace ringsim
