#include "latency_calibration.h"

#include "trace_validation.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

std::optional<GroupedTrace> latency_bound_sizes(const GroupedTrace& grouped) {
  GroupedTrace flat = grouped;
  flat.sizes.clear();
  for (MeasuredCase& measured : flat.cases) {
    std::map<std::uint64_t, double> kept;
    double smallest = 0;
    for (const auto& [bytes, time_s] : measured.median_time_s) {  // ascending sizes
      if (!kept.empty() && time_s > kFlatRatio * smallest) break;
      smallest = kept.empty() ? time_s : std::min(smallest, time_s);
      kept.emplace(bytes, time_s);
    }
    if (kept.size() < kMinFlatSizes) return std::nullopt;
    for (const auto& [bytes, time_s] : kept) flat.sizes.push_back(bytes);
    measured.median_time_s = std::move(kept);
  }
  std::sort(flat.sizes.begin(), flat.sizes.end());
  flat.sizes.erase(std::unique(flat.sizes.begin(), flat.sizes.end()), flat.sizes.end());
  return flat;
}

namespace {

// FLAT simulated with every link latency times SCALE, compared size by size (summary over all sizes).
std::optional<Validation> simulate_at(Scenario scenario, const Platform& platform, const GroupedTrace& flat, double scale) {
  scenario.model.link_latency_scale = scale;
  ValidationOptions options;
  options.quiet = true;
  return validate_against_trace(scenario, platform, flat, options);
}

std::vector<ComparedSize> compared_sizes(const Validation& validation) {
  std::vector<ComparedSize> rows;
  for (const ComparedCase& compared : validation.cases) rows.insert(rows.end(), compared.sizes.begin(), compared.sizes.end());
  return rows;
}

}  // namespace

std::optional<LatencyScaleFit> fit_latency_scale(const Scenario& scenario, const Platform& platform,
                                                 const GroupedTrace& flat, const std::string& algorithm,
                                                 std::string& why_not) {
  Scenario simulated = scenario;
  simulated.algorithms = {algorithm};
  const double base = scenario.model.link_latency_scale;
  const auto at_full = simulate_at(simulated, platform, flat, base);
  const auto at_half = simulate_at(simulated, platform, flat, base / 2);
  if (!at_full || !at_half) return std::nullopt;
  const std::vector<ComparedSize> full = compared_sizes(*at_full), half = compared_sizes(*at_half);
  // Per size t(s) = c + d s; the least-squares s of the relative errors (c + d s)/m - 1.
  double numerator = 0, denominator = 0;
  for (std::size_t i = 0; i < full.size(); ++i) {
    const double m = full[i].measured_s;
    const double d = (full[i].simulated_s - half[i].simulated_s) / (base / 2);
    const double c = full[i].simulated_s - d * base;
    numerator += d / m * (1 - c / m);
    denominator += (d / m) * (d / m);
  }
  const double scale = denominator > 0 ? numerator / denominator : 0;
  if (!(scale > 0.01 * base)) {
    why_not = "the measured times lie below what the simulation takes with almost no latency";
    return std::nullopt;
  }
  const auto at_fit = simulate_at(simulated, platform, flat, scale);
  if (!at_fit) return std::nullopt;
  LatencyScaleFit fit;
  fit.scale = scale;
  fit.unscaled_median_error = at_full->all.median_abs_error;
  fit.median_abs_residual = at_fit->all.median_abs_error;
  for (const ComparedSize& row : compared_sizes(*at_fit))
    fit.rows.push_back({fmt::format("{}/{}", row.placement, row.order), row.bytes, row.measured_s, row.simulated_s});
  return fit;
}

}  // namespace ringsim
