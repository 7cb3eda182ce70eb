// The launcher's reading of the rank program's report, through the checked JSON accessor: the
// rank program only writes it and does not link the input library.
#include "../common/json_input.h"
#include "rank_report.h"

namespace ringsim {
namespace {

TrafficSummary parse_traffic(JsonObjectReader traffic) {
  const auto count = [&](std::string_view key) { return traffic.required(key).integer<std::uint64_t>(); };
  return {count("max_rank_sent_bytes"), count("max_rank_recv_bytes"), count("total_bytes"), count("steps")};
}

}  // namespace

RankReport parse_rank_report(const nlohmann::json& json, const std::string& file) {
  JsonObjectReader fields = JsonValue(json, file, "").object();
  RankReport report;
  report.algorithm = fields.required_string("algorithm");
  report.ranks = static_cast<int>(fields.required_int("ranks", 1, std::numeric_limits<int>::max()));
  report.smpi = fields.required_bool("smpi");
  for (const JsonValue& entry : fields.required("sizes").array()) {
    JsonObjectReader size_fields = entry.object();
    RankSizeReport& size = report.sizes.emplace_back();
    size.bytes = size_fields.required("bytes").integer<std::uint64_t>();
    for (const JsonValue& time : size_fields.required("times_s").array()) size.times_s.push_back(time.number());
    if (const JsonValue wrong = size_fields.required("wrong"); !wrong.is_null()) size.wrong = wrong.integer<long long>();
    // Reports of the library's MPI_Allreduce carry null: its messages were not counted.
    if (const auto traffic = size_fields.optional("traffic"); traffic && !traffic->is_null())
      size.traffic = parse_traffic(traffic->object());
  }
  return report;
}

}  // namespace ringsim
