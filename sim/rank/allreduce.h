// The interface between the harness (rank_main.cpp) and the allreduce algorithms (one file each),
// as nccl-tests separates all_reduce.cu from common.cu. Algorithms are plain MPI on float sums.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ringsim {

enum class StepPhase : int { scatter_reduce = 0, allgather = 1 };

// One step of one rank, timed with MPI_Wtime (simulated time under SMPI).
struct StepEvent {
  StepPhase phase;
  int step;
  int chunk;           // index of the segment received in this step
  int peer;            // rank received from
  std::uint64_t bytes; // bytes received in this step
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

 private:
  bool buffers_hold_values_;
};

struct AllreduceContext {
  MPI_Comm comm;
  int rank;
  int size;
  const LocalKernels& kernels;
  StepLog& log;
  float* scratch;  // `count` floats the algorithm may use freely
};

// Sums `input` over all ranks into `output` (both `count` floats; distinct buffers).
using AllreduceFn = void (*)(const float* input, float* output, std::size_t count, AllreduceContext& ctx);

// nullptr for an unknown name. The table is allreduce_registry.cpp; names in algorithm_catalog.h.
AllreduceFn find_allreduce(std::string_view name);

void ring_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx);

}  // namespace ringsim
