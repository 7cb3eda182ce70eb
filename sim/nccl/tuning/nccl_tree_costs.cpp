#include "nccl_tree_costs.h"

#include <algorithm>
#include <array>

namespace ringsim {
namespace {

// The tree's constants of one era of tuning.cc, in microseconds and GB/s, read at the tags named.
struct TreeConstants {
  double base[3];
  double nvlink[3];
  double pcie[3];
  double net[3];
  double efficiency;           // busBw x 0.9 (to 2.7), 0.92 (2.8 on)
  bool fixed_caps;             // to 2.7: at most 110 GB/s on 1-2 nodes, 80 on more (2.7 Ampere LL128: 130, 105)
  double ll_factor;            // 1/3 (to 2.6), 1/3.8 (2.7 on)
  bool ll_intra_slower;        // 2.7-2.18: LL's intra-node hop x 1.8 on several nodes
  double ampere_per_channel[3];  // 2.8 on: per-channel cap by nodes (1, 2, more), Ampere
  double hopper_per_channel[3];  // Hopper (2.16: Ampere's; 2.18: its own)
  bool one_gpu_slower;         // 2.19 on: the TREE pattern (one GPU per node) x 0.85
  const float (*correction)[23];  // treeCorrectionFactor per protocol, 2^6 B .. 2^28 B
};

// treeCorrectionFactor (tuning.cc): 2.5-2.6, 2.7, 2.8-2.9 and 2.10 on (23 entries from 2.8; the
// earlier tables' 22 are padded with 1.0, as NCCL applies none past them).
constexpr float kCorrection25[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .5, .5, .6, .7, .8, .9, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .8, .7, .7, .7, .6, .6, .7, .7, .8, .8, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9, 1.0}};
constexpr float kCorrection27[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9, 1.0}};
constexpr float kCorrection28[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, .92, .92},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};
constexpr float kCorrection210[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

// 2.5.6 and 2.6.4; 2.7.8; 2.8.4 and 2.9.9; 2.10.3 to 2.15.5; 2.16.5 and 2.17.1; 2.18.6; 2.19.4 to 2.22.3; 2.23.4 on.
constexpr TreeConstants kTree25{{4.4, 4.4, 0}, {.5, 1.9, 28}, {1.0, 1.9, 28}, {5.0, 7.5, 50}, .9, true, 1.0 / 3, false,
                                {0, 0, 0}, {0, 0, 0}, false, kCorrection25};
constexpr TreeConstants kTree27{{4.4, 4.4, 0}, {.52, 1.2, 28}, {1.0, 1.9, 28}, {5.0, 8.5, 50}, .9, true, 1 / 3.8, true,
                                {0, 0, 0}, {0, 0, 0}, false, kCorrection27};
constexpr TreeConstants kTree28{{4.4, 4.4, 0}, {.52, 1.25, 28}, {1.0, 1.9, 28}, {5.0, 8.5, 28}, .92, false, 1 / 3.8, true,
                                {24.0, 22.5, 16.0}, {24.0, 22.5, 16.0}, false, kCorrection28};
constexpr TreeConstants kTree210{{4.4, 4.4, 0}, {.52, 1.25, 28}, {1.0, 1.9, 28}, {5.0, 8.5, 28}, .92, false, 1 / 3.8, true,
                                 {24.0, 23.6, 17.8}, {24.0, 23.6, 17.8}, false, kCorrection210};
constexpr TreeConstants kTree218{{6.8, 14.0, 0}, {.6, 1.25, 4}, {1.0, 1.9, 6}, {5.0, 8.5, 14}, .92, false, 1 / 3.8, true,
                                 {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, false, kCorrection210};
constexpr TreeConstants kTree219{{6.8, 14.0, 0}, {.6, 1.25, 28}, {1.0, 1.9, 28}, {5.0, 8.5, 28}, .92, false, 1 / 3.8, false,
                                 {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, true, kCorrection210};
constexpr TreeConstants kTree223{{6.8, 14.0, 8.4}, {.6, 1.25, 4}, {1.0, 1.9, 4}, {5.0, 8.5, 14}, .92, false, 1 / 3.8, false,
                                 {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, true, kCorrection210};

const TreeConstants& tree_constants_of(const NcclVersion& v) {
  if (v.at_least(2, 23)) return kTree223;
  if (v.at_least(2, 19)) return kTree219;
  if (v.at_least(2, 18)) return kTree218;
  if (v.at_least(2, 10)) return kTree210;
  if (v.at_least(2, 8)) return kTree28;
  if (v.at_least(2, 7)) return kTree27;
  return kTree25;
}

}  // namespace

double nccl_tree_net_hop_us(const NcclVersion& version, NcclProtocol protocol) {
  const TreeConstants& k = tree_constants_of(version);
  return k.net[protocol == NcclProtocol::ll ? 0 : protocol == NcclProtocol::ll128 ? 1 : 2];
}

int nccl_log2i(int n) {
  int log = 0;
  while ((2LL << log) <= n) ++log;
  return log;
}

namespace {

NcclPrediction tree_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes, bool empirical) {
  const TreeConstants& k = tree_constants_of(c.version);
  const int p = nccl_protocol_index(protocol);
  const bool ampere = c.compute_capability == 80, hopper = c.compute_capability >= 90;
  const int by_nodes = c.nodes <= 2 ? c.nodes - 1 : 2;
  double bus_GBps = c.search_channels * c.channel_bandwidth_Bps / 1e9;
  if (empirical) {
    if (ampere && c.version.at_least(2, 7) && !c.version.at_least(2, 19)) bus_GBps = std::min(bus_GBps, 235.0);
    double cap = 0;
    if (k.fixed_caps) {
      const bool ampere_ll128 = c.version.at_least(2, 7) && ampere && p == kNcclLL128;
      cap = c.nodes > 2 ? (ampere_ll128 ? 105.0 : 80.0) : (ampere_ll128 ? 130.0 : 110.0);
    } else {
      const double per_channel = hopper ? k.hopper_per_channel[by_nodes]
                                 : ampere ? k.ampere_per_channel[by_nodes]
                                          : std::array<double, 3>{26.5, 18.5, 10.0}[static_cast<std::size_t>(by_nodes)];
      cap = c.search_channels * per_channel;
    }
    bus_GBps = std::min(bus_GBps * k.efficiency, cap);
  }
  if (p == kNcclLL) {
    bus_GBps *= k.ll_factor;
    if (c.version.at_least(2, 8)) bus_GBps = std::min(bus_GBps, nccl_ll_max_GBps(c));
  }
  if (p == kNcclLL128) {
    if (!c.version.at_least(2, 7)) {
      bus_GBps *= 7.0 / 9;
    } else {
      const double factor = c.nodes == 1 ? 7.0 / 9 : c.version.at_least(2, 10) ? 120.0 / 128 : 0.915;
      const double per_channel = !c.version.at_least(2, 8) ? 16.7 * 7 / 9
                                 : !c.version.at_least(2, 10) ? 16.9
                                 : hopper && c.version.at_least(2, 18) ? (c.nodes > 2 ? 29.0 : 36.7)
                                                                        : 20.0;
      bus_GBps = std::min(bus_GBps * factor, c.search_channels * per_channel);
    }
  }
  const double ppn = static_cast<double>(c.ranks) / c.nodes;
  if (empirical && k.one_gpu_slower && ppn == 1 && c.nodes > 1) bus_GBps *= 0.85;
  double algbw_GBps = bus_GBps * 0.5;
  if (empirical) {
    // log2i(bytes >> 6), 0 below 128 bytes as NCCL's log2i counts it.
    const int log_size = nccl_log2i(static_cast<int>(std::min<std::uint64_t>(bytes >> 6, 1u << 30)));
    if (log_size < 23) algbw_GBps *= k.correction[p][log_size];
  }
  double intra = (c.nvlink ? k.nvlink : k.pcie)[p];
  if (k.ll_intra_slower && c.nodes > 1 && p == kNcclLL) intra *= 1.8;
  const double per_node = std::floor(ppn);  // nRanks / nNodes in integers
  const double latency_us = k.base[p] + 2 * ((per_node - 1) * intra + nccl_log2i(c.nodes) * nccl_network_hop_us(c, k.net[p], protocol));
  NcclPrediction prediction;
  prediction.protocol = protocol;
  prediction.latency_s = latency_us * 1e-6;
  prediction.algbw_Bps = algbw_GBps * 1e9;
  prediction.time_s = prediction.latency_s + static_cast<double>(bytes) / prediction.algbw_Bps;
  return prediction;
}

}  // namespace

NcclPrediction nccl_tree_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes) {
  return tree_time(c, protocol, bytes, true);
}

NcclPrediction nccl_tree_core_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes) {
  return tree_time(c, protocol, bytes, false);
}

}  // namespace ringsim
