// The interface between the harness (rank_main.cpp) and the allreduce algorithms (one file each),
// as nccl-tests separates all_reduce.cu from common.cu. Algorithms are plain MPI on float sums; they
// move data only through AllreduceContext's send/isend/irecv/sendrecv, thin wrappers that count the
// rank's traffic and then call MPI (counted_mpi.cpp).
#pragma once

#include "engine_probes.h"
#include "nccl_rank_settings.h"
#include "progress_meter.h"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ringsim {

// What a step does. The values are the "phase" column of the events file, whose "phase_names" array
// (kStepPhaseNames, index = value) lets readers name them without this header.
enum class StepPhase : int {
  scatter_reduce = 0,  // ring: receive a segment, add it to ours
  allgather = 1,       // ring, rabenseifner: receive a reduced segment
  reduce = 2,          // trees: receive a partial sum and add it (or send ours up)
  broadcast = 3,       // trees: receive the result (or send it down)
  exchange = 4,        // recursive doubling / halving: swap with a partner and add
  fold = 5,            // non-powers of two: an extra rank hands its data to a partner first
  unfold = 6,          // ... and gets the result back at the end
  push = 7,            // parameter server: a shard travels to its server
  pull = 8,            // parameter server: the reduced shard travels back
  library = 9,         // the MPI library's own MPI_Allreduce, one step
};
inline constexpr std::array<std::string_view, 10> kStepPhaseNames{
    "scatter_reduce", "allgather", "reduce", "broadcast", "exchange", "fold", "unfold", "push", "pull", "library"};
static_assert(static_cast<std::size_t>(StepPhase::library) + 1 == kStepPhaseNames.size());

// One step of one rank, timed with MPI_Wtime (simulated time under SMPI), or with StepLog::clock_s
// where an algorithm reads the clock only to record the step.
struct StepEvent {
  StepPhase phase;
  int step;
  int chunk;           // index of the segment received in this step (algorithm-specific numbering)
  int peer;            // rank received from; in a step that only sends, the rank sent to
  std::uint64_t bytes; // bytes received in this step; in a step that only sends, bytes sent
  double start_s;
  double end_s;
};

// Collects the step events of the current call when enabled; the harness clears it per iteration.
class StepLog {
 public:
  explicit StepLog(bool enabled) : enabled_(enabled) {}
  void record(const StepEvent& event) {
    if (enabled_) events_.push_back(event);
  }
  void clear() { events_.clear(); }
  bool enabled() const { return enabled_; }  // lets algorithms skip clock reads nobody records
  // The time of a moment only the log reads. MPI_Wtime owes SMPI's smpi/wtime sleep, which the rank
  // then sleeps before its next MPI call: an algorithm that reads the clock only while recording
  // (nccl_ring, nccl_tree) would move the very run it records (nccl_ring on ten one-GPU H100 nodes,
  // 256 MiB: 9773.59 us, 10642.96 us with --timeline). A free read of the simulated clock leaves it as
  // it is (it omits time the rank owes and has not slept yet: a reduction's flops); MPI_Wtime under a
  // real MPI.
  static double clock_s() {
    if (const std::optional<double> simulated = simulated_clock_s()) return *simulated;
    return MPI_Wtime();
  }
  const std::vector<StepEvent>& events() const { return events_; }

 private:
  bool enabled_;
  std::vector<StepEvent> events_;
};

// The local (non-MPI) work of an algorithm. When the buffers are SMPI-shared their values mean
// nothing, so the work is skipped: at 512 ranks x 64 MiB the copies alone would write 32 GiB.
class LocalKernels {
 public:
  explicit LocalKernels(bool buffers_hold_values) : buffers_hold_values_(buffers_hold_values) {}
  // dst[i] += src[i]; under SMPI charged as one flop per element on the rank's host speed.
  void sum_into(float* dst, const float* src, std::size_t count) const;
  // dst[i] = src[i]; a local copy, free in simulated time (device memory bandwidth >> network).
  void copy(float* dst, const float* src, std::size_t count) const;
  // False when buffers are SMPI-shared: then receives may land in the shared scratch together.
  bool hold_values() const { return buffers_hold_values_; }

 private:
  bool buffers_hold_values_;
};

// What one rank put on the wire during one call. Bytes are counted when a send or receive is posted
// (every algorithm receives exactly what it posts); messages_sent counts point-to-point sends.
struct TrafficCounts {
  std::uint64_t sent_bytes = 0;
  std::uint64_t recv_bytes = 0;
  std::uint64_t messages_sent = 0;
};

struct AllreduceContext {
  MPI_Comm comm;
  int rank;
  int size;
  const LocalKernels& kernels;
  StepLog& log;
  float* scratch;                        // `count` floats the algorithm may use freely
  TrafficCounts& traffic;                // what the wrappers below have counted
  const std::vector<int>& node_of_rank;  // node index of every rank of comm (rank_nodes.h); may be empty
  ProgressMeter& progress;               // rank 0's progress: the wrappers count its steps
  NcclRankSettings nccl = {};            // nccl_ring, nccl_tree and nccl only
  // nccl_ring only: the NIC beside every rank's GPU (nccl_channel_rings.h); empty: one NIC per node.
  const std::vector<int>* rail_of_rank = nullptr;

  // MPI_Send / MPI_Isend / MPI_Irecv / MPI_Sendrecv of floats on `comm`, counted first (sends also
  // as progress steps).
  void send(const float* buffer, std::size_t count, int peer, int tag);
  void isend(const float* buffer, std::size_t count, int peer, int tag, MPI_Request* request);
  // MPI_Issend: complete only once received, at every size (MPI_Isend completes at once below the
  // eager limit), for schedules that count their sends in flight.
  void issend(const float* buffer, std::size_t count, int peer, int tag, MPI_Request* request);
  void irecv(float* buffer, std::size_t count, int peer, int tag, MPI_Request* request);
  void recv(float* buffer, std::size_t count, int peer, int tag);
  void sendrecv(const float* send_buffer, std::size_t send_count, int destination, float* recv_buffer,
                std::size_t recv_count, int source, int tag);
};

// Sums `input` over all ranks into `output` (both `count` floats; distinct buffers).
using AllreduceFn = void (*)(const float* input, float* output, std::size_t count, AllreduceContext& ctx);

struct AllreduceAlgorithm {
  AllreduceFn run = nullptr;
  // False when the algorithm moves data outside the counted wrappers (the MPI library's own
  // MPI_Allreduce): its traffic is unknown and reported as null.
  bool traffic_counted = true;
  // True when the algorithm reads ctx.node_of_rank: the run needs --nodes.
  bool needs_nodes = false;
};

// run == nullptr for an unknown name. The table is allreduce_registry.cpp; names in algorithm_catalog.h.
AllreduceAlgorithm find_allreduce(std::string_view name);

void ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void ring_pipelined_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx,
                              std::size_t segment_bytes);
void ring_bidir_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void parameter_server_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx,
                                int servers);
void reduce_bcast_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void recursive_doubling_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void rabenseifner_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void hierarchical_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_tree_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_nvls_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_nvls_tree_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void nccl_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);
void mpi_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);

}  // namespace ringsim
