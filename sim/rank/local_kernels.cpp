#include "allreduce.h"

#include <algorithm>

namespace ringsim {

void LocalKernels::sum_into(float* dst, const float* src, std::size_t count) const {
#ifdef SMPI_SHARED_MALLOC
  // smpi/simulate-computation is off, so the reduction costs simulated time only through this call:
  // one flop per element on the host's speed from the platform.
  smpi_execute_flops(static_cast<double>(count));
#endif
  if (!buffers_hold_values_) return;
  for (std::size_t i = 0; i < count; ++i) dst[i] += src[i];
}

void LocalKernels::copy(float* dst, const float* src, std::size_t count) const {
  if (buffers_hold_values_) std::copy(src, src + count, dst);
}

}  // namespace ringsim
