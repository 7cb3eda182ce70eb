#include "nccl_nvls_costs.h"

#include "nccl_tree_costs.h"

#include <algorithm>

namespace ringsim {

double nccl_nvls_efficiency(int compute_capability) { return compute_capability >= 100 ? 0.74 : 0.85; }

double nccl_nvls_latency_s(const NcclVersion& v) {
  if (!v.at_least(2, 18)) return 40e-6;  // baseLat
  if (!v.at_least(2, 21)) return 23e-6;  // baseLat (2.18), then hwLat NVLink
  return 25e-6;
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

NcclPrediction nccl_nvls_tree_time(const NcclCase& c, std::uint64_t bytes) {
  NcclPrediction p;
  p.protocol = NcclProtocol::simple;
  const double channels = c.nvls_channels, intra = c.nvls_channel_Bps, inter = c.nvls_inter_Bps;
  const double nodes = c.nodes;
  const int log2_nodes = nccl_log2i(c.nodes);
  // 2.19 on: interLat, the network's Simple hop with the plugin's latency (2.18 took the hardware's alone).
  const double net_hop_us = nccl_network_hop_us(c, c.version.at_least(2, 29) ? 20.9 : 14, NcclProtocol::simple);
  if (!c.version.at_least(2, 19)) {
    p.algbw_Bps = channels * (c.nodes <= 2 ? intra : inter) * 0.70 * nodes / (2 * (nodes - 1));
    p.latency_s = (23 + 2 * (nodes - 1) * 19) * 1e-6;
  } else if (!c.version.at_least(2, 28)) {
    p.algbw_Bps = 5.0 / 6.0 * channels * std::min(intra, c.nodes <= 2 ? inter : inter / 2);
    p.latency_s = (nccl_nvls_latency_s(c.version) * 1e6 + 2 * log2_nodes * net_hop_us) * 1e-6;
  } else {
    // perChMaxNVLSTreeBws (GB/s), Hopper and Blackwell, two nodes and more.
    const bool blackwell = c.compute_capability >= 100;
    const double cap = (c.nodes <= 2 ? (blackwell ? 96.0 : 57.7) : (blackwell ? (c.version.at_least(2, 29) ? 43.8 : 43.1) : 45.5)) * 1e9;
    const double intra_bw = intra * nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * 2;
    const double bus = channels * std::min({intra_bw, inter * (c.nodes <= 2 ? 2 : 1), cap});
    p.algbw_Bps = bus * c.ranks / (2.0 * (c.ranks - 1));
    p.latency_s = (25 + 2 * log2_nodes * net_hop_us) * 1e-6;
  }
  p.time_s = p.latency_s + static_cast<double>(bytes) / p.algbw_Bps;
  return p;
}

}  // namespace ringsim
