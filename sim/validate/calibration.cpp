#include "calibration.h"

#include "../common/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ringsim {

StepFit fit_step_times(const std::vector<StepSample>& samples) {
  double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& sample : samples) {
    const double w = 1 / (sample.step_time_s * sample.step_time_s);
    s += w, sx += w * sample.step_bytes, sy += w * sample.step_time_s;
    sxx += w * sample.step_bytes * sample.step_bytes, sxy += w * sample.step_bytes * sample.step_time_s;
  }
  const double determinant = s * sxx - sx * sx;
  if (samples.size() < 2 || determinant <= 1e-12 * s * sxx)
    throw std::invalid_argument("calibration needs measurements at two or more distinct sizes");
  StepFit fit;
  fit.samples = samples.size();
  fit.seconds_per_byte = (s * sxy - sx * sy) / determinant;
  fit.latency_s = (sy - fit.seconds_per_byte * sx) / s;
  if (fit.latency_s < 0) fit.latency_s = 0, fit.seconds_per_byte = sxy / sxx;
  if (fit.seconds_per_byte <= 0) throw std::invalid_argument("the measured times do not grow with size: no bandwidth to fit");

  const double mean = sy / s;
  double residual = 0, total = 0;
  std::vector<double> relative;
  for (const auto& sample : samples) {
    const double w = 1 / (sample.step_time_s * sample.step_time_s);
    const double predicted = fit.predict(sample.step_bytes);
    residual += w * (sample.step_time_s - predicted) * (sample.step_time_s - predicted);
    total += w * (sample.step_time_s - mean) * (sample.step_time_s - mean);
    relative.push_back(std::abs(predicted / sample.step_time_s - 1));
  }
  fit.r_squared = total > 0 ? 1 - residual / total : 1;
  fit.median_abs_residual = median(relative);
  return fit;
}

}  // namespace ringsim
