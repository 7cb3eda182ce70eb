#include "latency_bandwidth_split.h"

#include "calibration.h"

#include <algorithm>
#include <stdexcept>
#include <fmt/format.h>

namespace ringsim {

std::optional<TimeLine> fit_time_line(const std::vector<TimedSize>& points) {
  // The calibration's relative-error fit, with the call as its one step.
  std::vector<StepSample> samples;
  for (const TimedSize& p : points) {
    if (p.time_s <= 0) return std::nullopt;
    samples.push_back({static_cast<double>(p.bytes), p.time_s});
  }
  try {
    const StepFit fit = fit_step_times(samples);
    if (fit.latency_s <= 0) return std::nullopt;  // clamped: the free line's latency was negative
    return TimeLine{fit.latency_s, fit.bandwidth_Bps()};
  } catch (const std::invalid_argument&) {  // one size, or times that do not grow with it
    return std::nullopt;
  }
}

std::vector<RegimeSplit> split_by_regime(std::vector<ComparedSize> sizes, std::size_t min_sizes) {
  std::stable_sort(sizes.begin(), sizes.end(), [](const ComparedSize& a, const ComparedSize& b) { return a.bytes < b.bytes; });
  std::vector<RegimeSplit> regimes;
  std::size_t begin = 0;
  while (begin < sizes.size()) {
    std::size_t end = begin + 1;
    while (end < sizes.size() && sizes[end].nccl_ran == sizes[begin].nccl_ran) ++end;
    if (end - begin >= std::max<std::size_t>(2, min_sizes)) {
      std::vector<TimedSize> measured, simulated;
      for (std::size_t i = begin; i < end; ++i) {
        measured.push_back({sizes[i].bytes, sizes[i].measured_s});
        simulated.push_back({sizes[i].bytes, sizes[i].simulated_s});
      }
      const std::optional<TimeLine> measured_line = fit_time_line(measured);
      const std::optional<TimeLine> simulated_line = fit_time_line(simulated);
      if (measured_line && simulated_line)
        regimes.push_back({fmt::format("{} {}", sizes[begin].placement, sizes[begin].order),
                           sizes[begin].nccl_ran.value_or(""), sizes[begin].ranks, sizes[begin].bytes, sizes[end - 1].bytes, end - begin,
                           *measured_line, *simulated_line});
    }
    begin = end;
  }
  return regimes;
}

}  // namespace ringsim
