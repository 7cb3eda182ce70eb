#include "nccl_nvls_costs.h"

#include "nccl_tree_costs.h"

#include <algorithm>

namespace ringsim {
namespace {

double nvls_latency_us(const NcclRelease& release) { return release.base_latency_us[kNcclNvls][kNcclSimple]; }

}  // namespace

double nccl_nvls_efficiency(int compute_capability) { return compute_capability >= 100 ? 0.74 : 0.85; }

double nccl_nvls_latency_s(const NcclRelease& release) { return nvls_latency_us(release) / 1e6; }

NcclPrediction nccl_nvls_time(const NcclCase& c, std::uint64_t bytes) {
  double algbw_Bps = 0;
  const double channels = c.nvls_channels;
  const double bw = c.nvls_channel_Bps;
  const NcclNvlsFormula formula = c.release->nvls_formula;
  if (formula == NcclNvlsFormula::ring_graph) {
    algbw_Bps = 0.75 * c.search_channels * c.channel_bandwidth_Bps;  // the ring's graph
  } else if (formula == NcclNvlsFormula::heads_three_quarters) {
    algbw_Bps = 0.75 * channels * bw;
  } else if (formula == NcclNvlsFormula::heads_five_sixths) {
    algbw_Bps = 5.0 / 6.0 * channels * bw;
  } else {
    const double bus = channels * bw * nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * 2;
    algbw_Bps = bus * c.ranks / (2.0 * (c.ranks - 1));
  }
  return nccl_prediction(NcclProtocol::simple, nccl_nvls_latency_s(*c.release), algbw_Bps, bytes);
}

bool nccl_nvls_copy_possible(const NcclCase& c) {
  const NcclNvlsCopyFormula formula = c.release->nvls_copy_formula;
  if (!nccl_nvls_possible(c) || formula == NcclNvlsCopyFormula::none) return false;
  return formula != NcclNvlsCopyFormula::efficiency_per_peer || c.nvls_channels >= 2;
}

NcclPrediction nccl_nvls_copy_time(const NcclCase& c, std::uint64_t bytes) {
  const double channels = c.nvls_channels, bw = c.nvls_channel_Bps, ranks = c.ranks;
  const double per_peer = (ranks - 1) / ranks;  // tuning.cc's (ppn - 1) / ppn on one node
  double algbw_Bps = channels * bw;
  switch (c.release->nvls_copy_formula) {
    case NcclNvlsCopyFormula::heads_five_sixths: algbw_Bps *= 5.0 / 6.0; break;
    case NcclNvlsCopyFormula::heads: break;
    case NcclNvlsCopyFormula::heads_per_peer: algbw_Bps *= std::min(per_peer, 0.9); break;
    case NcclNvlsCopyFormula::efficiency_per_peer:
      algbw_Bps *= nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * per_peer;
      break;
    case NcclNvlsCopyFormula::none: break;
  }
  return nccl_prediction(NcclProtocol::simple, nccl_nvls_latency_s(*c.release), algbw_Bps, bytes);
}

NcclPrediction nccl_nvls_tree_time(const NcclCase& c, std::uint64_t bytes) {
  double algbw_Bps = 0, latency_s = 0;
  const double channels = c.nvls_channels, intra = c.nvls_channel_Bps, inter = c.nvls_inter_Bps;
  const double nodes = c.nodes;
  const int log2_nodes = nccl_log2i(c.nodes);
  // 2.19 on: interLat, the network's Simple hop with the plugin's latency (2.18 took the hardware's alone).
  const NcclRelease& k = *c.release;
  const double hw_hop_us = k.hop_latency_us[kNcclNetHop][kNcclNvlsTree][kNcclSimple];
  const double net_hop_us = nccl_network_hop_us(c, hw_hop_us, NcclProtocol::simple);
  if (k.nvls_formula == NcclNvlsFormula::ring_graph || k.nvls_formula == NcclNvlsFormula::heads_three_quarters) {
    algbw_Bps = channels * (c.nodes <= 2 ? intra : inter) * 0.70 * nodes / (2 * (nodes - 1));
    latency_s = (nvls_latency_us(k) + 2 * (nodes - 1) * hw_hop_us) * 1e-6;
  } else if (k.nvls_formula == NcclNvlsFormula::heads_five_sixths) {
    algbw_Bps = 5.0 / 6.0 * channels * std::min(intra, c.nodes <= 2 ? inter : inter / 2);
    latency_s = (nvls_latency_us(k) + 2 * log2_nodes * net_hop_us) * 1e-6;
  } else {
    // perChMaxNVLSTreeBw (GB/s) of Hopper or Blackwell, on two nodes or more.
    const std::size_t blackwell = c.compute_capability >= 100 ? 1 : 0, more_nodes = c.nodes <= 2 ? 0 : 1;
    const double cap = k.nvls_tree_cap_GBps[blackwell][more_nodes] * 1e9;
    const double intra_bw = intra * nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * 2;
    const double bus = channels * std::min({intra_bw, inter * (c.nodes <= 2 ? 2 : 1), cap});
    algbw_Bps = bus * c.ranks / (2.0 * (c.ranks - 1));
    latency_s = (nvls_latency_us(k) + 2 * log2_nodes * net_hop_us) * 1e-6;
  }
  return nccl_prediction(NcclProtocol::simple, latency_s, algbw_Bps, bytes);
}

}  // namespace ringsim
