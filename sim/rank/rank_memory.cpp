// Everything that differs between SMPI and a real MPI lives here and in local_kernels.cpp.
#include "rank_memory.h"

#include <mpi.h>

#include <cstdlib>
#include <new>

namespace ringsim {
namespace {

// One byte minimum so that count == 0 still yields distinct, valid pointers; buffers whose values
// mean nothing get kSlackFloats more, what a message over 2^31 floats may be rounded up by
// (counted_mpi.cpp).
std::size_t buffer_bytes(std::size_t count) { return count == 0 ? 1 : count * sizeof(float); }
constexpr std::size_t kSlackFloats = 8;

float* allocate_private(std::size_t count) {
  void* memory = std::malloc(buffer_bytes(count));
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<float*>(memory);
}

}  // namespace

#ifdef SMPI_SHARED_MALLOC
bool running_under_smpi() { return true; }

RankBuffers::RankBuffers(std::size_t count, bool hold_values) : hold_values_(hold_values) {
  if (hold_values_) {
    input_ = allocate_private(count);
    output_ = allocate_private(count);
    scratch_ = allocate_private(count);
  } else {
    // Distinct call sites give distinct shared regions (SMPI keys them by file and line).
    input_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(count + kSlackFloats)));
    output_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(count + kSlackFloats)));
    scratch_ = static_cast<float*>(SMPI_SHARED_MALLOC(buffer_bytes(count + kSlackFloats)));
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
