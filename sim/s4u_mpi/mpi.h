// The MPI subset the rank program (sim/rank/) uses, implemented on SimGrid's S4U API so that the same
// sources run with every rank as an S4U actor (docs/engines.md). Only this target sees this
// header: SMPI and Open MPI builds use their own mpi.h.
#pragma once

#include <cstddef>
#include <cstdint>

// Opaque handles are small integers or pointers; only MPI_COMM_WORLD exists.
using MPI_Comm = int;
using MPI_Datatype = int;
using MPI_Op = int;
namespace ringsim::s4u_engine {
struct Request;
}
using MPI_Request = ringsim::s4u_engine::Request*;
struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
};

inline constexpr MPI_Comm MPI_COMM_WORLD = 0;
inline constexpr int MPI_COMM_TYPE_SHARED = 1;
inline constexpr int MPI_SUCCESS = 0;
inline constexpr int MPI_UNDEFINED = -32766;
inline constexpr int MPI_MAX_PROCESSOR_NAME = 256;
inline constexpr MPI_Request MPI_REQUEST_NULL = nullptr;
#define MPI_STATUS_IGNORE (static_cast<MPI_Status*>(nullptr))
#define MPI_STATUSES_IGNORE (static_cast<MPI_Status*>(nullptr))

// Datatypes: the value is an index into s4u_engine::datatype_size (datatypes.cpp).
inline constexpr MPI_Datatype MPI_CHAR = 0;
inline constexpr MPI_Datatype MPI_INT = 1;
inline constexpr MPI_Datatype MPI_FLOAT = 2;
inline constexpr MPI_Datatype MPI_DOUBLE = 3;
inline constexpr MPI_Datatype MPI_LONG_LONG = 4;
inline constexpr MPI_Datatype MPI_UINT64_T = 5;
inline constexpr MPI_Datatype MPI_LONG_DOUBLE = 6;            // 16 bytes, as on x86-64
inline constexpr MPI_Datatype MPI_C_LONG_DOUBLE_COMPLEX = 7;  // 32 bytes

inline constexpr MPI_Op MPI_SUM = 0;
inline constexpr MPI_Op MPI_MAX = 1;

int MPI_Init(int* argc, char*** argv);
int MPI_Finalize();
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Comm_rank(MPI_Comm comm, int* rank);
int MPI_Comm_size(MPI_Comm comm, int* size);
int MPI_Get_processor_name(char* name, int* length);
double MPI_Wtime();
int MPI_Type_size(MPI_Datatype type, int* size);

int MPI_Send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm);
int MPI_Recv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status);
int MPI_Isend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm,
              MPI_Request* request);
// Synchronous sends: never eager, complete once received (each engine's point_to_point.cpp).
int MPI_Ssend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm);
int MPI_Issend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm,
               MPI_Request* request);
int MPI_Irecv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request);
int MPI_Sendrecv(const void* send_buffer, int send_count, MPI_Datatype send_type, int destination, int send_tag,
                 void* recv_buffer, int recv_count, MPI_Datatype recv_type, int source, int recv_tag, MPI_Comm comm,
                 MPI_Status* status);
int MPI_Wait(MPI_Request* request, MPI_Status* status);
int MPI_Waitall(int count, MPI_Request* requests, MPI_Status* statuses);
int MPI_Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status);
int MPI_Testany(int count, MPI_Request* requests, int* index, int* flag, MPI_Status* status);

// Collectives outside the timed call: exact results at no simulated cost (collectives.cpp).
int MPI_Barrier(MPI_Comm comm);
int MPI_Reduce(const void* send_buffer, void* recv_buffer, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm);
int MPI_Gather(const void* send_buffer, int send_count, MPI_Datatype send_type, void* recv_buffer, int recv_count,
               MPI_Datatype recv_type, int root, MPI_Comm comm);
int MPI_Gatherv(const void* send_buffer, int send_count, MPI_Datatype send_type, void* recv_buffer,
                const int* recv_counts, const int* displacements, MPI_Datatype recv_type, int root, MPI_Comm comm);
int MPI_Allgather(const void* send_buffer, int send_count, MPI_Datatype send_type, void* recv_buffer, int recv_count,
                  MPI_Datatype recv_type, MPI_Comm comm);
// The library's own allreduce has no S4U twin: the "mpi" algorithm runs on SMPI only (aborts here).
int MPI_Allreduce(const void* send_buffer, void* recv_buffer, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

// SMPI's extensions the rank program uses (rank_memory.cpp, local_kernels.cpp). Defining
// SMPI_SHARED_MALLOC selects the simulated-buffer code paths there, as under SMPI.
void smpi_execute_flops(double flops);
// A timed sleep of the calling rank (nccl_ring's handshakes): each engine's own, where SMPI's ranks are
// actors that sleep with this_actor::sleep_for (engine_probes.cpp).
void ringsim_engine_sleep(double seconds);
#define RINGSIM_ENGINE_SLEEP 1
// MPI_Waitany with a deadline (engine_probes.h wait_any_until): the index of the request that completed
// first (finished and set to MPI_REQUEST_NULL), or MPI_UNDEFINED once the clock reaches DEADLINE_S.
int ringsim_engine_wait_any_until(int count, MPI_Request* requests, double deadline_s);
#define RINGSIM_ENGINE_WAIT_UNTIL 1
// From now on the calling rank's sends flow at most at BYTES_PER_SECOND of message (0: as fast as the
// network lets them): a thread block that writes LL's lines at its own pace (nccl_ring_allreduce.cpp).
// SimGrid's per-comm rate bound; SMPI has no such call (engine_probes.cpp).
void ringsim_engine_pace_sends(double bytes_per_second);
#define RINGSIM_ENGINE_PACE 1
// From now on each of the calling rank's sends is charged WIRE_PER_BYTE x its bytes on the network
// (engine_probes.h scale_sends); with RINGSIM_ENGINE_PACE.
void ringsim_engine_scale_sends(double wire_per_byte);
// From now on the calling rank's messages are delivered SECONDS after their transfer ends (engine_probes.h
// delay_deliveries); false where the engine cannot (the S4U engine).
bool ringsim_engine_delay_deliveries(double seconds);
void* ringsim_s4u_shared_malloc(std::size_t bytes);
void ringsim_s4u_shared_free(void* data);
#define SMPI_SHARED_MALLOC(bytes) ringsim_s4u_shared_malloc(bytes)
#define SMPI_SHARED_FREE(data) ringsim_s4u_shared_free(data)
