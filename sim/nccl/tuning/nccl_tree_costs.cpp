#include "nccl_tree_costs.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ringsim {

double nccl_tree_net_hop_us(const NcclRelease& release, NcclProtocol protocol) {
  return release.hop_latency_us[kNcclNetHop][kNcclTree][static_cast<std::size_t>(nccl_protocol_index(protocol))];
}

int nccl_log2i(int n) {
  int log = 0;
  while ((2LL << log) <= n) ++log;
  return log;
}

namespace {

NcclPrediction tree_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes, bool empirical) {
  const NcclRelease& k = *c.release;
  const int p = nccl_protocol_index(protocol);
  const auto pi = static_cast<std::size_t>(p);
  const bool ampere = c.compute_capability == 80, hopper = c.compute_capability >= 90;
  const auto by_nodes = static_cast<std::size_t>(nccl_node_class(c.nodes));
  const std::size_t more_nodes = c.nodes > 2 ? 1 : 0;
  double bus_GBps = c.search_channels * c.channel_bandwidth_Bps / 1e9;
  if (empirical) {
    if (ampere && k.tree_ampere_bus_cap_GBps > 0) bus_GBps = std::min(bus_GBps, k.tree_ampere_bus_cap_GBps);
    double cap = 0;
    if (k.tree_fixed_cap_GBps[0] > 0) {
      cap = (ampere && p == kNcclLL128 ? k.tree_ampere_ll128_fixed_cap_GBps : k.tree_fixed_cap_GBps)[more_nodes];
    } else {
      const double per_channel = hopper ? k.tree_hopper_per_channel_GBps[by_nodes]
                                 : ampere ? k.tree_ampere_per_channel_GBps[by_nodes]
                                          : std::array<double, 3>{26.5, 18.5, 10.0}[by_nodes];  // other GPUs', in every release
      cap = c.search_channels * per_channel;
    }
    bus_GBps = std::min(bus_GBps * k.tree_efficiency, cap);
  }
  if (p == kNcclLL) {
    bus_GBps *= k.tree_ll_factor;
    if (k.ll_max_bws) bus_GBps = std::min(bus_GBps, nccl_ll_max_GBps(c));
  }
  if (p == kNcclLL128) {
    const double factor = c.nodes == 1 ? 7.0 / 9 : k.tree_ll128_factor_across_nodes;
    const double per_channel = hopper ? k.tree_ll128_hopper_per_channel_GBps[more_nodes] : k.tree_ll128_per_channel_GBps;
    if (per_channel > 0) bus_GBps = std::min(bus_GBps * factor, c.search_channels * per_channel);
    else bus_GBps *= factor;
  }
  const double ppn = static_cast<double>(c.ranks) / c.nodes;
  if (empirical && k.tree_one_gpu_slower && ppn == 1 && c.nodes > 1) bus_GBps *= 0.85;
  double algbw_GBps = bus_GBps * 0.5;
  if (empirical) {
    // log2i(bytes >> 6), 0 below 128 bytes as NCCL's log2i counts it.
    const int log_size = nccl_log2i(static_cast<int>(std::min<std::uint64_t>(bytes >> 6, 1u << 30)));
    if (log_size < 23) algbw_GBps *= (*k.tree_correction)[pi][static_cast<std::size_t>(log_size)];
  }
  double intra = k.hop_latency_us[c.nvlink ? kNcclNvlinkHop : kNcclPciHop][kNcclTree][pi];
  if (k.tree_ll_intra_slower && c.nodes > 1 && p == kNcclLL) intra *= 1.8;
  const double per_node = std::floor(ppn);  // nRanks / nNodes in integers
  const double net_us = k.hop_latency_us[kNcclNetHop][kNcclTree][pi];
  const double latency_us = k.base_latency_us[kNcclTree][pi] +
                            2 * ((per_node - 1) * intra + nccl_log2i(c.nodes) * nccl_network_hop_us(c, net_us, protocol));
  return nccl_prediction(protocol, latency_us * 1e-6, algbw_GBps * 1e9, bytes);
}

}  // namespace

NcclPrediction nccl_tree_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes) {
  return tree_time(c, protocol, bytes, true);
}

NcclPrediction nccl_tree_core_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes) {
  return tree_time(c, protocol, bytes, false);
}

}  // namespace ringsim
