#include "regime_verdict.h"

#include <cmath>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr double kRateTolerance = 0.10;     // a rate within 10% is "within"
constexpr double kLatencyTolerance = 0.10;  // a latency gap under 10% of the measured one is no gap
constexpr double kLatencyFloor_s = 1e-6;    // nor is one under 1 us

std::string duration(double seconds) {
  const double us = std::abs(seconds) * 1e6;
  return us >= 1000 ? fmt::format("{:.3g} ms", us / 1000) : fmt::format("{:.3g} us", us);
}

bool latency_gap(const RegimeSplit& regime) {
  const double gap = std::abs(regime.measured.latency_s - regime.simulated.latency_s);
  return gap > kLatencyFloor_s && gap > kLatencyTolerance * regime.measured.latency_s;
}

// The simulation's rate against the run's, minus one.
double rate_error(const RegimeSplit& regime) { return regime.simulated.bytes_per_s / regime.measured.bytes_per_s - 1; }

std::string latency_clause(const RegimeSplit& regime) {
  const double gap = regime.measured.latency_s - regime.simulated.latency_s;
  if (!latency_gap(regime))
    return fmt::format("the per-call latency matches ({} measured, {} simulated)", duration(regime.measured.latency_s),
                       duration(regime.simulated.latency_s));
  if (gap > 0) return fmt::format("each call pays {} the simulation does not", duration(gap));
  return fmt::format("the simulation charges each call {} the run does not pay", duration(gap));
}

std::string rate_clause(const RegimeSplit& regime) {
  if (latency_bound(regime)) return "the rate is not measured at these latency-bound sizes";
  const double error = rate_error(regime);
  if (std::abs(error) <= kRateTolerance) return fmt::format("the rate is within {:.0f}%", std::abs(error) * 100);
  return fmt::format("the simulated rate is {:.0f}% {} the measured one", std::abs(error) * 100, error > 0 ? "above" : "below");
}

}  // namespace

bool latency_bound(const RegimeSplit& regime) {
  return static_cast<double>(regime.to_bytes) / regime.measured.bytes_per_s < regime.measured.latency_s;
}

std::string regime_verdict(const RegimeSplit& regime) {
  return fmt::format("{}; {}", latency_clause(regime), rate_clause(regime));
}

bool regime_needs_calibration(const RegimeSplit& regime) {
  return latency_gap(regime) || (!latency_bound(regime) && std::abs(rate_error(regime)) > kRateTolerance);
}

}  // namespace ringsim
