// Fitting the ring's step time to a measured trace: each of the 2(N-1) steps moves S/N bytes over
// every ring edge, and the busiest NIC direction carries k edges, so a step takes
//     t_step = a + b * (k * S / N)
// with a the per-step latency and 1/b the effective bandwidth of that NIC direction.
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim {

struct StepSample {
  double step_bytes = 0;   // k * S / N
  double step_time_s = 0;  // measured time / (2(N-1))
};

struct StepFit {
  double latency_s = 0;         // a
  double seconds_per_byte = 0;  // b
  double r_squared = 0;         // weighted by 1/t^2, as the fit
  double median_abs_residual = 0;  // relative: |predicted/measured - 1|
  std::size_t samples = 0;

  double bandwidth_Bps() const { return 1 / seconds_per_byte; }
  double predict(double step_bytes) const { return latency_s + seconds_per_byte * step_bytes; }
};

// Least squares weighted by 1/t^2 (relative errors), so small and large sizes both count. A negative
// latency is clamped to 0 (fit through the origin). Needs two distinct step sizes.
StepFit fit_step_times(const std::vector<StepSample>& samples);

}  // namespace ringsim
