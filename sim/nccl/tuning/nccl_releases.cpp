#include "nccl_releases.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace ringsim {
namespace {

// search.cc's intra-node speed lists (GB/s per channel), fastest first.
constexpr float kSpeeds25[] = {24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};
constexpr float kSpeeds27[] = {42, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};
constexpr float kSpeeds29[] = {42, 30, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};
constexpr float kSpeeds212[] = {44, 30, 22, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
constexpr float kSpeeds218[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
constexpr float kSpeedsSm90_216[] = {66, 33, 24, 20, 15, 12, 6, 3};
constexpr float kSpeedsSm90_218[] = {60, 40, 30, 24, 20, 15, 12, 6, 3};
constexpr float kSpeedsSm90_219[] = {60, 50, 40, 30, 24, 20, 15, 12, 6, 3};
constexpr float kSpeedsSm90_221[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
constexpr float kSpeedsSm100[] = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18};

// treeCorrectionFactor (tuning.cc) per protocol: 23 entries from 2.8; the earlier tables' 22 are
// padded with 1.0, as NCCL applies none past them.
using TreeCorrection = std::array<std::array<float, 23>, 3>;
constexpr TreeCorrection kCorrection25{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .5, .5, .6, .7, .8, .9, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .8, .7, .7, .7, .6, .6, .7, .7, .8, .8, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9, 1.0}}};
constexpr TreeCorrection kCorrection27{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9, 1.0}}};
constexpr TreeCorrection kCorrection28{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, .92, .92},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}}};
constexpr TreeCorrection kCorrection210{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}}};

// A row written as the changes a release made to the one before it.
template <typename Change>
constexpr NcclRelease edited(NcclRelease row, NcclVersion version, Change change) {
  row.version = version;
  change(row);
  return row;
}

// The oldest release modelled in full: NVIDIA/nccl v2.5.6-1 (tuning.cc's first time model, with 2.6.4's
// which kept it); its time model is also the closed form printed for 2.4, which had none of its own.
constexpr NcclRelease kNccl25 = edited(NcclRelease{}, {2, 5}, [](NcclRelease& r) {
  r.time_model = true;
  //                       LL    LL128  Simple
  r.base_latency_us = {{{4.4, 4.4, 0},         // tree
                        {3.6, 3.6, 8.4},       // ring
                        {0, 0, 40},            // NVLS (2.17's, before it existed)
                        {0, 0, 0}}};           // NVLS tree
  r.hop_latency_us[kNcclNvlinkHop] = {{{.5, 1.9, 28}, {.4, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}}};
  r.hop_latency_us[kNcclPciHop] = {{{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}}};
  r.hop_latency_us[kNcclNetHop] = {{{5.0, 7.5, 50}, {.9, 2.5, 6.6}, {0, 0, 0}, {0, 0, 19}}};
  r.plugin_latency = NcclPluginLatency::ignored;
  r.ll128 = true;
  r.ll128_gpus = {70, 0, 0};  // Volta only
  r.ll_max_bws = false;
  r.ll_max_GBps = {{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {87.7, 22.5, 19.0}}};
  r.ring_ll_factor = 0.25;  // the flag halves the payload, the polling halves again
  r.ring_ll128_per_channel_GBps = {0, 0, 0};
  r.ring_ll128_total_cap_GBps = 100.0;
  r.ring_ll128_one_per_node_slower = false;
  r.ring_one_hop_kind = true;
  r.ring_inter_steps_2n = false;
  r.ring_ll_intra_slower = false;
  r.ring_net_overhead = false;
  r.ring_one_per_node_tree_hop = false;
  r.ring_simple_plateau = false;
  r.ring_plateau_per_channel = false;
  r.ring_plateau_factor = {1.9, 1.9, 1.9};
  r.tree_efficiency = .9;
  r.tree_fixed_cap_GBps = {110.0, 80.0};
  r.tree_ampere_ll128_fixed_cap_GBps = {110.0, 80.0};
  r.tree_ampere_per_channel_GBps = {0, 0, 0};
  r.tree_hopper_per_channel_GBps = {0, 0, 0};
  r.tree_ampere_bus_cap_GBps = 0;
  r.tree_ll_factor = 1.0 / 3;
  r.tree_ll_intra_slower = false;
  r.tree_ll128_factor_across_nodes = 7.0 / 9;
  r.tree_ll128_per_channel_GBps = 0;
  r.tree_ll128_hopper_per_channel_GBps = {0, 0};
  r.tree_one_gpu_slower = false;
  r.tree_correction = &kCorrection25;
  r.nvls = r.nvls_trees = false;
  r.nvls_formula = NcclNvlsFormula::ring_graph;
  r.nvls_tree_cap_GBps = {{{0, 0}, {0, 0}}};
  r.nvswitch_search = true;
  r.intra_speeds = kSpeeds25;
  r.intra_speeds_sm90 = {};
  r.intra_speeds_sm100 = {};
  r.nvlink_GBps = r.nvlink_sm86_GBps = r.nvlink_sm90_GBps = r.nvlink_sm100_GBps = 21;  // VOLTA_NVLINK_WIDTH
  r.max_channels = 32;
  r.ring_duplication = NcclRingDuplication::never;
  r.channel_factor = 2;  // connect.cc doubles the search's channels
  r.nvls_max_arity = 8;
  r.nvls_launch_channels = 16;
  r.nvls_launch_channels_sm100 = {16, 16};
  r.tree_split = {false, true, false};  // LL128 always split
  r.nvls_tree_chunk = 0;
  r.nvls_tree_64k_from_4_nodes = false;
  r.nvls_first_halving = 32;
});

// v2.4.8-1: no time model (enqueue.cc's thresholds), no LL128, no search of NVSwitch nodes, and the
// search's channels run as found; otherwise 2.5's model, the nearest that exists, for closed forms.
constexpr NcclRelease kNccl24 = edited(kNccl25, {2, 4}, [](NcclRelease& r) {
  r.time_model = false;
  r.ll128 = false;
  r.ll128_gpus = {0, 0, 0};
  r.nvswitch_search = false;
  r.channel_factor = 1;
});

// v2.7.8-1
constexpr NcclRelease kNccl27 = edited(kNccl25, {2, 7}, [](NcclRelease& r) {
  r.base_latency_us[kNcclRing] = {3.6, 10.0, 8.4};
  r.hop_latency_us[kNcclNvlinkHop][kNcclTree] = {.52, 1.2, 28};
  r.hop_latency_us[kNcclNvlinkHop][kNcclRing] = {.47, 1.9, 3.4};
  r.hop_latency_us[kNcclNetHop][kNcclTree] = {5.0, 8.5, 50};
  r.hop_latency_us[kNcclNetHop][kNcclRing] = {2.7, 4.0, 9.6};
  r.ll128_gpus = {70, 80, 0};
  r.ring_ll128_per_channel_GBps = {16.7, 16.7, 16.7};  // allreduce's
  r.ring_ll128_per_channel_by_function_GBps = {18.8, 12.0, 18.3, 15.2, 16.7};
  r.ring_ll_one_node_copy_factor = 1.0 / 3;
  r.ring_ll128_total_cap_GBps = 0;
  r.ring_ll128_one_per_node_slower = true;
  r.ring_one_hop_kind = false;
  r.ring_ll_intra_slower = true;
  r.ring_simple_plateau = true;
  r.tree_ampere_ll128_fixed_cap_GBps = {130.0, 105.0};
  r.tree_ampere_bus_cap_GBps = 235.0;
  r.tree_ll_factor = 1 / 3.8;
  r.tree_ll_intra_slower = true;
  r.tree_ll128_factor_across_nodes = 0.915;
  r.tree_ll128_per_channel_GBps = 16.7 * 7 / 9;
  r.tree_ll128_hopper_per_channel_GBps = {16.7 * 7 / 9, 16.7 * 7 / 9};
  r.tree_correction = &kCorrection27;
  r.intra_speeds = kSpeeds27;
  r.ring_duplication = NcclRingDuplication::from_25GBps;
});

// v2.8.4-1
constexpr NcclRelease kNccl28 = edited(kNccl27, {2, 8}, [](NcclRelease& r) {
  r.hop_latency_us[kNcclNvlinkHop][kNcclTree] = {.52, 1.25, 28};
  r.hop_latency_us[kNcclNetHop][kNcclTree] = {5.0, 8.5, 28};
  r.ll_max_bws = true;
  r.ring_ll128_per_channel_GBps = {16.9, 16.9, 16.9};
  r.ring_ll128_per_channel_by_function_GBps = {18.8, 12.0, 18.3, 15.2, 16.9};
  r.tree_efficiency = .92;
  r.tree_fixed_cap_GBps = {0, 0};
  r.tree_ampere_ll128_fixed_cap_GBps = {0, 0};
  r.tree_ampere_per_channel_GBps = {24.0, 22.5, 16.0};
  r.tree_hopper_per_channel_GBps = {24.0, 22.5, 16.0};
  r.tree_ll128_per_channel_GBps = 16.9;
  r.tree_ll128_hopper_per_channel_GBps = {16.9, 16.9};
  r.tree_correction = &kCorrection28;
  r.tree_split[kNcclSimple] = true;
});

// v2.9.9-1
constexpr NcclRelease kNccl29 = edited(kNccl28, {2, 9}, [](NcclRelease& r) {
  r.intra_speeds = kSpeeds29;
  r.nvlink_sm86_GBps = 12;
});

// v2.10.3-1: one LL128 cap per channel for every collective
constexpr NcclRelease kNccl210 = edited(kNccl29, {2, 10}, [](NcclRelease& r) {
  r.ring_ll128_per_channel_GBps = {20.0, 20.0, 36.7};
  r.ring_ll128_per_channel_by_function_GBps = {};
  r.tree_ampere_per_channel_GBps = {24.0, 23.6, 17.8};
  r.tree_hopper_per_channel_GBps = {24.0, 23.6, 17.8};
  r.tree_ll128_factor_across_nodes = 120.0 / 128;
  r.tree_ll128_per_channel_GBps = 20.0;
  r.tree_ll128_hopper_per_channel_GBps = {20.0, 20.0};
  r.tree_correction = &kCorrection210;
  r.tree_split[kNcclLL] = true;
});

// v2.12.12-1: graph->latencyInter (the plugin's latency) and 2 x nodes network steps; PXN (paths.cc
// ncclTopoComputePaths adds PATH_PXN ways GPU -> NVLink -> peer GPU -> NIC; 2.11.4 has none)
constexpr NcclRelease kNccl212 = edited(kNccl210, {2, 12}, [](NcclRelease& r) {
  r.pxn = true;
  r.plugin_latency = NcclPluginLatency::instead_of_hardware;
  r.ring_inter_steps_2n = true;
  r.ring_plateau_factor = {1.9, 1.9, 1.5};
  r.intra_speeds = kSpeeds212;
  r.nvlink_GBps = 22;
  r.nvlink_sm90_GBps = 22;
  r.nvlink_sm100_GBps = 22;
});

// v2.16.5-1: Hopper's search speeds and LL128
constexpr NcclRelease kNccl216 = edited(kNccl212, {2, 16}, [](NcclRelease& r) {
  r.ll128_gpus = {70, 80, 90};
  r.intra_speeds_sm90 = kSpeedsSm90_216;
  r.ring_duplication = NcclRingDuplication::hopper_from_50GBps;
});

// v2.17.1-1: NVLS on one NVSwitch node
constexpr NcclRelease kNccl217 = edited(kNccl216, {2, 17}, [](NcclRelease& r) { r.nvls = true; });

// v2.18.6-1: NVLS trees
constexpr NcclRelease kNccl218 = edited(kNccl217, {2, 18}, [](NcclRelease& r) {
  r.base_latency_us[kNcclTree] = {6.8, 14.0, 0};
  r.base_latency_us[kNcclNvls] = {0, 0, 23};
  r.hop_latency_us[kNcclNvlinkHop][kNcclTree] = {.6, 1.25, 4};
  r.hop_latency_us[kNcclPciHop][kNcclTree] = {1.0, 1.9, 6};
  r.hop_latency_us[kNcclNetHop][kNcclTree] = {5.0, 8.5, 14};
  r.hop_latency_us[kNcclNetHop][kNcclNvlsTree] = {0, 0, 19};  // per node step, without the plugin's
  r.plugin_latency = NcclPluginLatency::added;
  r.tree_hopper_per_channel_GBps = {38.7, 41.4, 36.0};
  r.tree_ll128_hopper_per_channel_GBps = {36.7, 29.0};
  r.nvls_trees = true;
  r.nvls_formula = NcclNvlsFormula::heads_three_quarters;
  r.intra_speeds = kSpeeds218;
  r.intra_speeds_sm90 = kSpeedsSm90_218;
  r.nvlink_GBps = 20;
  r.nvlink_sm90_GBps = 20;
  r.nvlink_sm100_GBps = 20;
  r.ring_duplication = NcclRingDuplication::not_thin_past_ampere;
  r.nvls_first_halving = 64;
});

// v2.19.4-1
constexpr NcclRelease kNccl219 = edited(kNccl218, {2, 19}, [](NcclRelease& r) {
  r.base_latency_us[kNcclRing] = {6.6, 14.0, 8.4};
  r.hop_latency_us[kNcclNvlinkHop][kNcclTree] = {.6, 1.25, 28};
  r.hop_latency_us[kNcclNvlinkHop][kNcclRing] = {.6, 1.9, 3.4};
  r.hop_latency_us[kNcclPciHop][kNcclTree] = {1.0, 1.9, 28};
  r.hop_latency_us[kNcclNetHop][kNcclTree] = {5.0, 8.5, 28};
  r.hop_latency_us[kNcclNetHop][kNcclRing] = {2.7, 4.0, 14.0};
  r.hop_latency_us[kNcclNetHop][kNcclNvlsTree] = {0, 0, 14};
  r.ring_ll_intra_slower = false;
  r.ring_net_overhead = true;
  r.ring_plateau_per_channel = true;
  r.ring_plateau_factor = {1.9, 1.4, 1.4};
  r.tree_ampere_bus_cap_GBps = 0;
  r.tree_ll_intra_slower = false;
  r.tree_one_gpu_slower = true;
  r.nvls_formula = NcclNvlsFormula::heads_five_sixths;
  r.nvls_copy_formula = NcclNvlsCopyFormula::heads_five_sixths;  // NVLS all-gather and reduce-scatter
  r.intra_speeds_sm90 = kSpeedsSm90_219;
  r.nvls_tree_64k_from_4_nodes = true;
});

// v2.21.5-1: LL at half the bus, NCCL_NVLS_CHUNKSIZE
constexpr NcclRelease kNccl221 = edited(kNccl219, {2, 21}, [](NcclRelease& r) {
  r.base_latency_us[kNcclNvls] = {0, 0, 25};  // hwLat NVLink from here
  r.ring_ll_factor = 0.5;
  r.ring_ll_one_node_copy_factor = 0;
  r.intra_speeds_sm90 = kSpeedsSm90_221;
  r.nvlink_sm90_GBps = 20.6;
  r.nvlink_sm100_GBps = 20.6;
  r.nvls_max_arity = 32;
  r.nvls_tree_chunk = 128u << 10;
  r.p2p_net_channels = NcclP2pNetChannels::two_by_scale;
});

// v2.23.4-1
constexpr NcclRelease kNccl223 = edited(kNccl221, {2, 23}, [](NcclRelease& r) {
  r.base_latency_us[kNcclTree] = {6.8, 14.0, 8.4};
  r.hop_latency_us[kNcclNvlinkHop][kNcclTree] = {.6, 1.25, 4};
  r.hop_latency_us[kNcclPciHop][kNcclTree] = {1.0, 1.9, 4};
  r.hop_latency_us[kNcclNetHop][kNcclTree] = {5.0, 8.5, 14};
  r.ll_max_GBps[2] = {141.0, 45.0, 35.0};
  r.ring_ll128_one_per_node_slower = false;
  r.ring_inter_steps_2n = false;
  r.ring_one_per_node_tree_hop = true;
  r.nvls_copy_formula = NcclNvlsCopyFormula::heads;
  r.pat_bus_factor = 0.85;  // PAT for all-gather and reduce-scatter, one GPU per node
});

// v2.24.3-1: PAT's bus bandwidth x 0.75
constexpr NcclRelease kNccl224 = edited(kNccl223, {2, 24}, [](NcclRelease& r) { r.pat_bus_factor = 0.75; });

// v2.25.1-1: Blackwell, MAXCHANNELS 64
constexpr NcclRelease kNccl225 = edited(kNccl224, {2, 25}, [](NcclRelease& r) {
  r.intra_speeds_sm100 = kSpeedsSm100;
  r.nvlink_sm100_GBps = 40;
  r.max_channels = 64;
  r.nvls_launch_channels_sm100 = {32, 32};
  r.p2p_hopper_doubling = true;
});

// v2.27.7-1
constexpr NcclRelease kNccl227 = edited(kNccl225, {2, 27}, [](NcclRelease& r) {
  r.nvls_launch_channels_sm100 = {24, 32};
  r.nvls_copy_formula = NcclNvlsCopyFormula::heads_per_peer;
});

// v2.28.3-1: nvlsEfficiency and perChMaxNVLSTreeBw (the NVLS tree's network hop stays 14 us here, as in 2.19-2.27)
constexpr NcclRelease kNccl228 = edited(kNccl227, {2, 28}, [](NcclRelease& r) {
  r.nvlink_sm100_GBps = 40.1;
  r.nvls_formula = NcclNvlsFormula::efficiency;
  r.nvls_copy_formula = NcclNvlsCopyFormula::efficiency_per_peer;
  r.nvls_tree_cap_GBps = {{{57.7, 45.5}, {96.0, 43.1}}};
});

// v2.29.2-1
constexpr NcclRelease kNccl229 = edited(kNccl228, {2, 29}, [](NcclRelease& r) {
  r.hop_latency_us[kNcclNetHop][kNcclNvlsTree] = {0, 0, 20.9};
  r.nvls_tree_cap_GBps[1][1] = 43.8;
  r.p2p_net_channels = NcclP2pNetChannels::nic_rate;
  r.p2p_fit_one_batch = true;
});

// NCCL's releases, oldest first; each row the first release whose sources hold its values.
constexpr NcclRelease kNcclReleases[] = {kNccl24, kNccl25, kNccl27, kNccl28, kNccl29, kNccl210, kNccl212, kNccl216,
                                          kNccl217, kNccl218, kNccl219, kNccl221, kNccl223, kNccl224, kNccl225, kNccl227, kNccl228,
                                          kNccl229};

}  // namespace

std::string NcclVersion::text() const { return fmt::format("{}.{}", major, minor); }

std::optional<NcclVersion> parse_nccl_version(std::string_view text) {
  if (const auto build = text.find('+'); build != std::string_view::npos) text = text.substr(0, build);
  NcclVersion version;
  const char* end = text.data() + text.size();
  auto [after_major, ec1] = std::from_chars(text.data(), end, version.major);
  if (ec1 != std::errc() || after_major == end || *after_major != '.') return std::nullopt;
  auto [after_minor, ec2] = std::from_chars(after_major + 1, end, version.minor);
  if (ec2 != std::errc()) return std::nullopt;
  if (after_minor != end) {
    int patch = 0;
    if (*after_minor != '.') return std::nullopt;
    auto [after_patch, ec3] = std::from_chars(after_minor + 1, end, patch);
    if (ec3 != std::errc() || after_patch != end) return std::nullopt;
  }
  // 2.4 chose by thresholds (no time model), 2.5 on by tuning.cc's model (docs/scenario-format.md, "NCCL's time model").
  if (version.major != 2 || version < kNcclReleases[0].version || version.minor > 99) return std::nullopt;
  return version;
}

const NcclRelease& nccl_release_of(const NcclVersion& version) {
  const NcclRelease* found = &kNcclReleases[0];
  for (const NcclRelease& row : kNcclReleases)
    if (row.version <= version) found = &row;
  return *found;
}

std::span<const NcclRelease> nccl_releases() { return kNcclReleases; }

int nccl_gpu_generation(int compute_capability) { return compute_capability >= 90 ? 2 : compute_capability >= 80 ? 1 : 0; }

int nccl_node_class(int nodes) { return nodes <= 2 ? nodes - 1 : 2; }

}  // namespace ringsim
