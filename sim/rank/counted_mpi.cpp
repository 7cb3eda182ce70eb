// The only way algorithms touch the network: each wrapper adds to the rank's traffic counts and
// then makes the one plain MPI call it stands for, so counts cannot drift from what is sent. Sends
// are also the steps of rank 0's progress (a clock read, no MPI call: simulated time is untouched).
#include "allreduce.h"

namespace ringsim {
namespace {

std::uint64_t bytes_of(std::size_t count) { return static_cast<std::uint64_t>(count) * sizeof(float); }

}  // namespace

void AllreduceContext::send(const float* buffer, std::size_t count, int peer, int tag) {
  traffic.sent_bytes += bytes_of(count);
  ++traffic.messages_sent;
  progress.note_step();
  MPI_Send(buffer, static_cast<int>(count), MPI_FLOAT, peer, tag, comm);
}

void AllreduceContext::isend(const float* buffer, std::size_t count, int peer, int tag, MPI_Request* request) {
  traffic.sent_bytes += bytes_of(count);
  ++traffic.messages_sent;
  progress.note_step();
  MPI_Isend(buffer, static_cast<int>(count), MPI_FLOAT, peer, tag, comm, request);
}

void AllreduceContext::irecv(float* buffer, std::size_t count, int peer, int tag, MPI_Request* request) {
  traffic.recv_bytes += bytes_of(count);
  MPI_Irecv(buffer, static_cast<int>(count), MPI_FLOAT, peer, tag, comm, request);
}

void AllreduceContext::recv(float* buffer, std::size_t count, int peer, int tag) {
  traffic.recv_bytes += bytes_of(count);
  MPI_Recv(buffer, static_cast<int>(count), MPI_FLOAT, peer, tag, comm, MPI_STATUS_IGNORE);
}

void AllreduceContext::sendrecv(const float* send_buffer, std::size_t send_count, int destination, float* recv_buffer,
                                std::size_t recv_count, int source, int tag) {
  traffic.sent_bytes += bytes_of(send_count);
  traffic.recv_bytes += bytes_of(recv_count);
  ++traffic.messages_sent;
  progress.note_step();
  MPI_Sendrecv(send_buffer, static_cast<int>(send_count), MPI_FLOAT, destination, tag, recv_buffer,
               static_cast<int>(recv_count), MPI_FLOAT, source, tag, comm, MPI_STATUS_IGNORE);
}

}  // namespace ringsim
