#include "rank_report.h"

namespace ringsim {

nlohmann::json traffic_json(const std::optional<TrafficSummary>& traffic) {
  if (!traffic) return nullptr;
  return {{"max_rank_sent_bytes", traffic->max_rank_sent_bytes},
          {"max_rank_recv_bytes", traffic->max_rank_recv_bytes},
          {"total_bytes", traffic->total_bytes},
          {"steps", traffic->steps}};
}

TrafficSummary parse_traffic(const nlohmann::json& traffic) {
  return {traffic.at("max_rank_sent_bytes").get<std::uint64_t>(), traffic.at("max_rank_recv_bytes").get<std::uint64_t>(),
          traffic.at("total_bytes").get<std::uint64_t>(), traffic.at("steps").get<std::uint64_t>()};
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

RankReport parse_rank_report(const nlohmann::json& json) {
  RankReport report;
  report.algorithm = json.at("algorithm").get<std::string>();
  report.ranks = json.at("ranks").get<int>();
  report.smpi = json.at("smpi").get<bool>();
  for (const nlohmann::json& entry : json.at("sizes")) {
    RankSizeReport& size = report.sizes.emplace_back();
    size.bytes = entry.at("bytes").get<std::uint64_t>();
    size.times_s = entry.at("times_s").get<std::vector<double>>();
    if (!entry.at("wrong").is_null()) size.wrong = entry.at("wrong").get<long long>();
    // Reports of the library's MPI_Allreduce carry null: its messages were not counted.
    if (const auto traffic = entry.find("traffic"); traffic != entry.end() && !traffic->is_null())
      size.traffic = parse_traffic(*traffic);
  }
  return report;
}

}  // namespace ringsim
