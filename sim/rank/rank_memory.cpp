// Everything that differs between SMPI and a real MPI lives here and in local_kernels.cpp.
#include "rank_memory.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <new>

namespace ringsim {
namespace {

// One byte minimum so that count == 0 still yields distinct, valid pointers.
std::size_t buffer_bytes(std::size_t count) { return count == 0 ? 1 : count * sizeof(float); }

float* allocate_private(std::size_t count) {
  void* memory = std::malloc(buffer_bytes(count));
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<float*>(memory);
}

}  // namespace

#ifdef SMPI_SHARED_MALLOC
namespace {
// Buffers whose values mean nothing get 8 floats more where a message may exceed 2^31 - 1 floats and
// be rounded up (counted_mpi.cpp); only there: a 64 MiB buffer plus slack spans two of SMPI's 64 MiB
// shared blocks, and mapping a block costs as much as the simulation of a 64-rank ring.
std::size_t shared_floats(std::size_t count) {
  return count > static_cast<std::size_t>(std::numeric_limits<int>::max()) ? count + 8 : count;
}

}  // namespace

bool running_under_smpi() { return true; }

RankBuffers::RankBuffers(std::size_t count, bool hold_values) : hold_values_(hold_values) {
  if (hold_values_) {
    input_ = allocate_private(count);
    output_ = allocate_private(count);
    scratch_ = allocate_private(count);
  } else {
    // Distinct call sites give distinct shared regions (SMPI keys them by file and line).
    input_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(shared_floats(count))));
    output_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(shared_floats(count))));
    scratch_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(shared_floats(count))));
  }
}

RankBuffers::~RankBuffers() {
  if (hold_values_) {
    std::free(input_);
    std::free(output_);
    std::free(scratch_);
  } else {
    SMPI_SHARED_FREE(input_);
    SMPI_SHARED_FREE(output_);
    SMPI_SHARED_FREE(scratch_);
  }
}
#else
bool running_under_smpi() { return false; }

RankBuffers::RankBuffers(std::size_t count, bool /*hold_values*/) : hold_values_(true) {
  input_ = allocate_private(count);
  output_ = allocate_private(count);
  scratch_ = allocate_private(count);
}

RankBuffers::~RankBuffers() {
  std::free(input_);
  std::free(output_);
  std::free(scratch_);
}
#endif

}  // namespace ringsim
