// NCCL's releases as ringsim models them: per release that changed something, every value its tuning
// (src/graph/tuning.cc), topology search (src/graph/search.cc, topo.h) and enqueue code (src/enqueue.cc,
// the kernels) hold that the model reads. The one place a release is described: the rest of sim/nccl
// reads the fields of a row, never a version number. Adding a release is one row of kNcclReleases
// (nccl_releases.cpp) and its tests.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ringsim {

struct NcclVersion {
  int major = 2;
  int minor = 18;
  std::string text() const;  // "2.18"
  auto operator<=>(const NcclVersion&) const = default;
};

// "2.18", "2.18.3" or "2.6.4+cuda10.1" (a patch level and a build suffix change nothing modelled);
// nullopt unless a version ringsim models (from its oldest row, 2.4, on).
std::optional<NcclVersion> parse_nccl_version(std::string_view text);

// The indices of tuning.cc's tables: protocols (NCCL_PROTO_LL, _LL128, _SIMPLE), algorithms
// (NCCL_ALGO_TREE, _RING, then NVLS and NVLS_TREE; CollNet, not modelled, left out) and the hardware
// of a hop (NCCL_HW_NVLINK, _PCI, _NET).
inline constexpr int kNcclLL = 0, kNcclLL128 = 1, kNcclSimple = 2;
inline constexpr int kNcclTree = 0, kNcclRing = 1, kNcclNvls = 2, kNcclNvlsTree = 3;
inline constexpr int kNcclNvlinkHop = 0, kNcclPciHop = 1, kNcclNetHop = 2;

// Microseconds per [algorithm][protocol], as tuning.cc's baseLat and hwLat[hardware] hold them.
using NcclLatencyTable = std::array<std::array<double, 3>, 4>;
// Per GPU generation (Volta and older, Ampere, Hopper and later: nccl_gpu_generation) or per node
// count (1, 2, more: nccl_node_class).
using NcclByGeneration = std::array<double, 3>;
using NcclByNodes = std::array<double, 3>;

// How the model takes the latency the network plugin reports (ncclNetProperties_t.latency): not at
// all, instead of the hardware's network hop, or added to it (twice under Simple, for the flush).
enum class NcclPluginLatency { ignored, instead_of_hardware, added };

// When the search duplicates the rings it found inside an NVSwitch node at half their speed
// (ncclTopoDupChannels): never; from 25 GB/s; up to Ampere from 25 GB/s and Hopper from 50; from
// 25 GB/s but not past Ampere below 50 GB/s with more than 4 channels.
enum class NcclRingDuplication { never, from_25GBps, hopper_from_50GBps, not_thin_past_ampere };

// NCCL's model of NVLS (and of its NVLS tree, nccl_nvls_costs.h): 0.75 of the ring's graph (tree:
// 0.70 x M/(2(M-1)) of the heads); 0.75 of the heads (tree the same); 5/6 of the heads; the heads
// at nvlsEfficiency with per-channel caps.
enum class NcclNvlsFormula { ring_graph, heads_three_quarters, heads_five_sixths, efficiency };

// NCCL's model of NVLS all-gather and reduce-scatter on one node, with C channels of B GB/s and N
// ranks (tuning.cc): none before 2.19; 5/6 x C x B (all-reduce's, 2.19-2.22); C x B, not converted to
// an algorithm bandwidth (2.23-2.26); C x min(B (N-1)/N, 0.9 B) (2.27); C x B x nvlsEfficiency x
// (C-1)/C x (N-1)/N (2.28 on).
enum class NcclNvlsCopyFormula { none, heads_five_sixths, heads, heads_per_peer, efficiency_per_peer };

// How paths.cc counts the channels a network peer asks for.
enum class NcclP2pNetChannels {
  two,           // NCCL_NCHANNELS_PER_NET_PEER = 2
  two_by_scale,  // 2, halved while 2 x ranks > 4 x p2pnChannels, at least the GPU's NICs (2.21 on)
  nic_rate,      // the GPU's NIC rate over NCCL_P2P_PER_CHANNEL_NET_BW, at least its NICs (2.29 on)
};

struct NcclRelease {
  NcclVersion version;  // the first release these values hold for

  // tuning.cc: what the time model exists for, its latencies and which protocols it may pick.
  bool time_model = false;  // picks by its time model (2.4 picked by enqueue.cc's thresholds, ring only)
  NcclLatencyTable base_latency_us{};                  // baseLat
  std::array<NcclLatencyTable, 3> hop_latency_us{};    // hwLat[hardware]
  NcclPluginLatency plugin_latency = NcclPluginLatency::ignored;
  bool ll128 = false;                // LL128 exists
  std::array<int, 3> ll128_gpus{};   // compute capabilities LL128 is enabled on by default (0: none)
  bool ll_max_bws = false;           // llMaxBws caps LL's bus bandwidth (ring and tree)
  std::array<NcclByNodes, 3> ll_max_GBps{};  // llMaxBws[GPU generation, or 0 across nodes (Intel hosts)][nodes]

  // The ring.
  double ring_ll_factor = 0;                     // LL's share of the bus bandwidth
  NcclByGeneration ring_ll128_per_channel_GBps{};  // ll128MaxBwPerCh
  // 2.7-2.9: ll128MaxBwPerCh per function (broadcast, reduce, all-gather, reduce-scatter, all-reduce;
  // all-reduce's is the generations' row above); 0: the row above for every function.
  std::array<double, 5> ring_ll128_per_channel_by_function_GBps{};
  double ring_ll_one_node_copy_factor = 0;  // 2.7-2.20: LL's share for all-gather, reduce-scatter and broadcast on one node (0: ring_ll_factor)
  double ring_ll128_total_cap_GBps = 0;   // LL128 at 120/128 of the bus, at most this (0: per channel, x 0.92)
  bool ring_ll128_one_per_node_slower = false;  // LL128 x 0.7 instead of 0.92 with under 2 ranks per node
  bool ring_one_hop_kind = false;         // every step at one hop latency (the network's across nodes)
  bool ring_inter_steps_2n = false;       // 2 x nodes network steps (else 2 x (nodes - 1))
  bool ring_ll_intra_slower = false;      // LL's intra-node hop x 1.8 on several nodes
  bool ring_net_overhead = false;         // every hop of a multi-node ring at least the proxy's post (1 us, 3 Simple)
  bool ring_one_per_node_tree_hop = false;  // one rank per node: the network hop is the tree's
  bool ring_simple_plateau = false;       // a multi-node Simple ring's latency x the plateau factor from a size on
  bool ring_plateau_per_channel = false;  // from 64 bytes per channel and rank (else nRanks/16 x 64 KiB)
  NcclByGeneration ring_plateau_factor{};

  // The tree.
  double tree_efficiency = 0;                        // of the bus bandwidth
  std::array<double, 2> tree_fixed_cap_GBps{};       // on 1-2 nodes, more (0: per-channel caps)
  std::array<double, 2> tree_ampere_ll128_fixed_cap_GBps{};
  NcclByNodes tree_ampere_per_channel_GBps{};
  NcclByNodes tree_hopper_per_channel_GBps{};
  double tree_ampere_bus_cap_GBps = 0;               // the search's bus bandwidth at most this on Ampere (0: none)
  double tree_ll_factor = 0;
  bool tree_ll_intra_slower = false;                 // LL's intra-node hop x 1.8 on several nodes
  double tree_ll128_factor_across_nodes = 0;         // LL128's share of the bus on several nodes (7/9 on one)
  double tree_ll128_per_channel_GBps = 0;            // LL128's cap per channel (0: none)
  std::array<double, 2> tree_ll128_hopper_per_channel_GBps{};  // on 1-2 nodes, more
  bool tree_one_gpu_slower = false;                  // the TREE pattern (one GPU per node) x 0.85
  const std::array<std::array<float, 23>, 3>* tree_correction = nullptr;  // treeCorrectionFactor, 2^6 B .. 2^28 B

  // NVLS (NVLink SHARP) and its trees.
  bool nvls = false;         // on one NVSwitch node
  bool nvls_trees = false;   // across such nodes
  NcclNvlsFormula nvls_formula = NcclNvlsFormula::ring_graph;
  NcclNvlsCopyFormula nvls_copy_formula = NcclNvlsCopyFormula::none;  // all-gather's and reduce-scatter's
  std::array<std::array<double, 2>, 2> nvls_tree_cap_GBps{};  // perChMaxNVLSTreeBw [Hopper, Blackwell][1-2 nodes, more]

  // PAT (all-gather and reduce-scatter with one GPU per node, Simple): its share of the tree graph's
  // bus bandwidth (tuning.cc busBw *= ...): 0 before 2.23 (no PAT), 0.85 in 2.23, 0.75 from 2.24.
  double pat_bus_factor = 0;

  // The topology search (search.cc, topo.h).
  bool nvswitch_search = false;  // searches NVSwitch nodes' rings (nccl_intra_search.h)
  std::span<const float> intra_speeds;        // speedArrayIntra, GB/s per channel, fastest first
  std::span<const float> intra_speeds_sm90;   // Hopper's (empty: intra_speeds)
  std::span<const float> intra_speeds_sm100;  // Blackwell's (empty: Hopper's)
  double nvlink_GBps = 0;                     // per link; SM86's, Hopper's and Blackwell's below
  double nvlink_sm86_GBps = 0, nvlink_sm90_GBps = 0, nvlink_sm100_GBps = 0;
  int max_channels = 0;                       // MAXCHANNELS
  NcclRingDuplication ring_duplication = NcclRingDuplication::never;
  int channel_factor = 1;                     // the communicator runs this many times the search's channels
  int nvls_max_arity = 0;                     // NCCL_MAX_NVLS_ARITY
  // PXN (paths.cc from 2.12, unless NCCL_PXN_DISABLE=1): a GPU reaches a NIC of another rail through
  // the NVLink peer beside it, so rings keep one NIC at both ends of a node (PlatformModel::nccl_pxn).
  bool pxn = false;

  // enqueue.cc and the kernels.
  int nvls_launch_channels = 16;                          // NCCL_NVLS_NCHANNELS up to Hopper
  std::array<int, 2> nvls_launch_channels_sm100{};        // Blackwell's: on one node, on several
  std::array<bool, 3> tree_split{};                       // per protocol: runTreeSplit (else runTreeUpDown)
  std::uint64_t nvls_tree_chunk = 0;                      // NCCL_NVLS_CHUNKSIZE (0: a Simple step, NCCL_BUFFSIZE / 8)
  bool nvls_tree_64k_from_4_nodes = false;
  int nvls_first_halving = 0;

  // The point-to-point setup (paths.cc, connect.cc; nccl_p2p_rules.h).
  NcclP2pNetChannels p2p_net_channels = NcclP2pNetChannels::two;
  bool p2p_hopper_doubling = false;  // connect.cc doubles the channels below 16 on Hopper across nodes (2.25 on)
  bool p2p_fit_one_batch = false;    // paths.cc halves the channels per peer until every peer fits one batch (2.29 on)
};

// The newest row of kNcclReleases not newer than VERSION (which parse_nccl_version accepted).
const NcclRelease& nccl_release_of(const NcclVersion& version);

// Every row, oldest first.
std::span<const NcclRelease> nccl_releases();

// The GPU generation (Volta and older 0, Ampere 1, Hopper and later 2) and node class (1, 2, more:
// 0, 1, 2) that index the rows' per-generation and per-node values.
int nccl_gpu_generation(int compute_capability);
int nccl_node_class(int nodes);

}  // namespace ringsim
