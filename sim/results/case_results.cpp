#include "case_results.h"

#include <algorithm>

namespace ringsim {

double SizeResult::median_s() const {
  std::vector<double> sorted = times_s;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double SizeResult::min_s() const { return times_s.empty() ? 0 : *std::min_element(times_s.begin(), times_s.end()); }

double SizeResult::max_s() const { return times_s.empty() ? 0 : *std::max_element(times_s.begin(), times_s.end()); }

double algbw_GBps(std::uint64_t bytes, double time_s) {
  return time_s > 0 ? static_cast<double>(bytes) / time_s / 1e9 : 0;
}

double busbw_GBps(std::uint64_t bytes, double time_s, int ranks) {
  return ranks > 0 ? algbw_GBps(bytes, time_s) * 2.0 * (ranks - 1) / ranks : 0;
}

}  // namespace ringsim
