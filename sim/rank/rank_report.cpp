#include "rank_report.h"

namespace ringsim {

nlohmann::json traffic_json(const std::optional<TrafficSummary>& traffic) {
  if (!traffic) return nullptr;
  return {{"max_rank_sent_bytes", traffic->max_rank_sent_bytes},
          {"max_rank_recv_bytes", traffic->max_rank_recv_bytes},
          {"total_bytes", traffic->total_bytes},
          {"steps", traffic->steps}};
}

nlohmann::json rank_report_json(const RankReport& report) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const RankSizeReport& size : report.sizes)
    sizes.push_back({{"bytes", size.bytes},
                     {"count", size.bytes / sizeof(float)},
                     {"times_s", size.times_s},
                     {"wrong", size.wrong ? nlohmann::json(*size.wrong) : nlohmann::json()},
                     {"traffic", traffic_json(size.traffic)}});
  return {{"algorithm", report.algorithm}, {"ranks", report.ranks}, {"smpi", report.smpi}, {"sizes", sizes}};
}

}  // namespace ringsim
