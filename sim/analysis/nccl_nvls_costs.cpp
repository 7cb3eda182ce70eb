#include "nccl_nvls_costs.h"

namespace ringsim {

double nccl_nvls_efficiency(int compute_capability) { return compute_capability >= 100 ? 0.74 : 0.85; }

double nccl_nvls_latency_s(const NcclVersion& v) {
  if (!v.at_least(2, 18)) return 40e-6;  // baseLat
  if (!v.at_least(2, 21)) return 23e-6;  // baseLat (2.18), then hwLat NVLink
  return 25e-6;
}

std::optional<NcclNvlsRun> nccl_nvls_run_of(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm) {
  if (algorithm != "nccl_nvls" && algorithm != "nccl") return std::nullopt;
  const NcclSettings settings = model.effective_nccl();
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (algorithm == "nccl" && (!c || !nccl_nvls_possible(*c))) return std::nullopt;
  return NcclNvlsRun{nccl_nvls_efficiency(settings.compute_capability), nccl_nvls_latency_s(settings.version)};
}

NcclPrediction nccl_nvls_time(const NcclCase& c, std::uint64_t bytes) {
  NcclPrediction p;
  p.protocol = NcclProtocol::simple;
  p.latency_s = nccl_nvls_latency_s(c.version);
  const double channels = c.nvls_channels;
  const double bw = c.nvls_channel_Bps;
  if (!c.version.at_least(2, 18)) {
    p.algbw_Bps = 0.75 * c.search_channels * c.channel_bandwidth_Bps;  // the ring's graph
  } else if (!c.version.at_least(2, 19)) {
    p.algbw_Bps = 0.75 * channels * bw;
  } else if (!c.version.at_least(2, 28)) {
    p.algbw_Bps = 5.0 / 6.0 * channels * bw;
  } else {
    const double bus = channels * bw * nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * 2;
    p.algbw_Bps = bus * c.ranks / (2.0 * (c.ranks - 1));
  }
  p.time_s = p.latency_s + static_cast<double>(bytes) / p.algbw_Bps;
  return p;
}

}  // namespace ringsim
