// The collectives the harness calls outside the timed allreduce (reductions and gathers of results):
// exact, at no simulated cost. Every rank deposits a pointer, all meet on one S4U barrier, the readers
// copy, and all meet again so that no deposit is read after it dies. MPI_Barrier is the exception:
// when it returns on each rank starts that rank's clock, so it runs SMPI's default algorithm.
#include "datatypes.h"
#include "mpi.h"
#include "collective_meeting.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace ringsim::s4u_engine;

namespace {

// Copies every rank's deposit into BUFFER at DISPLACEMENT(r) elements, COUNT(r) elements each.
template <typename Count, typename Displacement>
void collect(void* buffer, MPI_Datatype type, Count count, Displacement displacement) {
  const std::size_t element = datatype_size(type);
  for (int r = 0; r < collective_size(); ++r)
    std::memcpy(static_cast<char*>(buffer) + displacement(r) * element, collective_deposits()[static_cast<std::size_t>(r)],
                static_cast<std::size_t>(count(r)) * element);
}

}  // namespace

// SMPI's default barrier (Open MPI's basic linear one): every rank sends an empty message to rank 0
// and waits for its empty reply; rank 0 replies once all have arrived. Same messages, same skew.
int MPI_Barrier(MPI_Comm comm) {
  constexpr int kBarrierTag = (1 << 21) - 1;  // above every tag of the rank program
  const int me = collective_rank();
  if (me != 0) {
    MPI_Send(nullptr, 0, MPI_CHAR, 0, kBarrierTag, comm);
    return MPI_Recv(nullptr, 0, MPI_CHAR, 0, kBarrierTag, comm, MPI_STATUS_IGNORE);
  }
  const int size = collective_size();
  std::vector<MPI_Request> requests(static_cast<std::size_t>(size), MPI_REQUEST_NULL);
  for (int r = 1; r < size; ++r) MPI_Irecv(nullptr, 0, MPI_CHAR, r, kBarrierTag, comm, &requests[r]);
  MPI_Waitall(size, requests.data(), MPI_STATUSES_IGNORE);
  for (int r = 1; r < size; ++r) MPI_Isend(nullptr, 0, MPI_CHAR, r, kBarrierTag, comm, &requests[r]);
  return MPI_Waitall(size, requests.data(), MPI_STATUSES_IGNORE);
}

int MPI_Reduce(const void* send_buffer, void* recv_buffer, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm) {
  const int me = collective_rank();
  collective_deposits()[static_cast<std::size_t>(me)] = send_buffer;
  collective_meet();
  if (me == root) {
    std::memcpy(recv_buffer, collective_deposits()[0], static_cast<std::size_t>(count) * datatype_size(type));
    for (int r = 1; r < collective_size(); ++r)
      reduce_into(recv_buffer, collective_deposits()[static_cast<std::size_t>(r)], count, type, op);
  }
  collective_meet();
  return MPI_SUCCESS;
}

int MPI_Gather(const void* send_buffer, int, MPI_Datatype, void* recv_buffer, int recv_count, MPI_Datatype recv_type,
               int root, MPI_Comm) {
  const int me = collective_rank();
  collective_deposits()[static_cast<std::size_t>(me)] = send_buffer;
  collective_meet();
  if (me == root)
    collect(recv_buffer, recv_type, [&](int) { return recv_count; },
            [&](int r) { return static_cast<std::size_t>(r) * static_cast<std::size_t>(recv_count); });
  collective_meet();
  return MPI_SUCCESS;
}

int MPI_Gatherv(const void* send_buffer, int, MPI_Datatype, void* recv_buffer, const int* recv_counts,
                const int* displacements, MPI_Datatype recv_type, int root, MPI_Comm) {
  const int me = collective_rank();
  collective_deposits()[static_cast<std::size_t>(me)] = send_buffer;
  collective_meet();
  if (me == root)
    collect(recv_buffer, recv_type, [&](int r) { return recv_counts[r]; },
            [&](int r) { return static_cast<std::size_t>(displacements[r]); });
  collective_meet();
  return MPI_SUCCESS;
}

int MPI_Allgather(const void* send_buffer, int, MPI_Datatype, void* recv_buffer, int recv_count,
                  MPI_Datatype recv_type, MPI_Comm) {
  collective_deposits()[static_cast<std::size_t>(collective_rank())] = send_buffer;
  collective_meet();
  collect(recv_buffer, recv_type, [&](int) { return recv_count; },
          [&](int r) { return static_cast<std::size_t>(r) * static_cast<std::size_t>(recv_count); });
  collective_meet();
  return MPI_SUCCESS;
}

int MPI_Allreduce(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm) {
  std::fprintf(stderr, "ringsim-rank: the \"mpi\" algorithm (the MPI library's own MPI_Allreduce) runs on the "
                       "SMPI engine only; use \"engine\": \"smpi\"\n");
  std::fflush(stdout);
  std::_Exit(2);
}
