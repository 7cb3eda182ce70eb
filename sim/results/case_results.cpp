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

namespace {

nlohmann::json traffic_json(const std::optional<TrafficSummary>& traffic) {
  if (!traffic) return nullptr;
  return {{"max_rank_sent_bytes", traffic->max_rank_sent_bytes},
          {"max_rank_recv_bytes", traffic->max_rank_recv_bytes},
          {"total_bytes", traffic->total_bytes},
          {"steps", traffic->steps}};
}

}  // namespace

nlohmann::json results_json(std::string_view kind, std::string_view scenario, const std::vector<CaseResult>& cases) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CaseResult& c : cases)
    for (const SizeResult& size : c.sizes) {
      const double time = size.median_s();
      nlohmann::json& row = rows.emplace_back(nlohmann::json{{"placement", c.spec.placement.ranks_text()},
                      {"order", order_name(c.spec.placement.order)},
                      {"algorithm", c.spec.algorithm},
                      {"ranks", c.ranks},
                      {"bytes", size.bytes},
                      {"iterations", size.times_s.size()},
                      {"time_s", time},
                      {"algbw_GBps", algbw_GBps(size.bytes, time)},
                      {"busbw_GBps", busbw_GBps(size.bytes, time, c.ranks)},
                      {"time_stats", {{"min", size.min_s()}, {"median", time}, {"max", size.max_s()}}},
                      {"wrong", size.wrong ? nlohmann::json(*size.wrong) : nlohmann::json()},
                      {"traffic", traffic_json(size.traffic)}});
      // Only when not SMPI, the engine of every golden, whose JSON stays as it was.
      if (c.spec.engine != "smpi") row["engine"] = c.spec.engine;
      if (size.closed_form_s) row["closed_form_s"] = *size.closed_form_s;
      if (c.cost_model)
        row["cost_model"] = {{"alpha_s", c.cost_model->alpha_s},
                             {"beta_s_per_byte", c.cost_model->beta_s_per_byte},
                             {"gamma_s_per_byte", c.cost_model->gamma_s_per_byte}};
    }
  return {{"kind", kind}, {"scenario", scenario}, {"results", rows}};
}

}  // namespace ringsim
