// The MPI calls that are the same on every engine built on this mpi.h (the S4U and the maestro
// engines): those written over other MPI calls, and those that touch no engine state.
#include "engine_sends.h"
#include "mpi.h"

#include <cstdio>
#include <cstdlib>

int MPI_Init(int*, char***) { return MPI_SUCCESS; }

int MPI_Abort(MPI_Comm, int errorcode) {
  // As smpirun does: the whole simulation ends with the rank's code.
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(errorcode);
}

int MPI_Isend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm,
              MPI_Request* request) {
  return ringsim::s4u_engine::start_send(buffer, count, type, destination, tag, request, false);
}

int MPI_Issend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm,
               MPI_Request* request) {
  return ringsim::s4u_engine::start_send(buffer, count, type, destination, tag, request, true);
}

int MPI_Send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm) {
  return ringsim::s4u_engine::blocking_send(buffer, count, type, destination, tag, false);
}

int MPI_Ssend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm) {
  return ringsim::s4u_engine::blocking_send(buffer, count, type, destination, tag, true);
}

int MPI_Recv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  MPI_Request request = nullptr;
  MPI_Irecv(buffer, count, type, source, tag, comm, &request);
  return MPI_Wait(&request, status);
}

int MPI_Sendrecv(const void* send_buffer, int send_count, MPI_Datatype send_type, int destination, int send_tag,
                 void* recv_buffer, int recv_count, MPI_Datatype recv_type, int source, int recv_tag, MPI_Comm comm,
                 MPI_Status* status) {
  MPI_Request requests[2] = {nullptr, nullptr};
  MPI_Irecv(recv_buffer, recv_count, recv_type, source, recv_tag, comm, &requests[0]);
  MPI_Isend(send_buffer, send_count, send_type, destination, send_tag, comm, &requests[1]);
  MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
  return MPI_Wait(&requests[0], status);
}

int MPI_Waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  // Waiting in order returns when the last one ends, as MPI_Waitall does.
  for (int i = 0; i < count; ++i) MPI_Wait(&requests[i], statuses == nullptr ? nullptr : &statuses[i]);
  return MPI_SUCCESS;
}
