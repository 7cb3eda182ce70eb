#include "comparison.h"

#include "../common/statistics.h"
#include "../common/units.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ringsim {

ErrorSummary summarize(const std::vector<ComparedSize>& sizes, std::uint64_t min_bytes) {
  ErrorSummary summary;
  std::vector<double> abs_errors;
  double log_sum = 0;
  for (const auto& size : sizes) {
    if (size.bytes < min_bytes) continue;
    const double error = size.error();
    abs_errors.push_back(std::abs(error));
    log_sum += std::log(size.simulated_s / size.measured_s);
    if (std::abs(error) >= std::abs(summary.worst_error) || summary.count == 0) {
      summary.worst_error = error;
      summary.worst = fmt::format("{} {} {}", size.placement, size.order, format_bytes(size.bytes));
    }
    ++summary.count;
  }
  if (summary.count == 0) return summary;
  summary.median_abs_error = median(abs_errors);
  summary.geomean_error = std::exp(log_sum / static_cast<double>(abs_errors.size())) - 1;
  return summary;
}

}  // namespace ringsim
