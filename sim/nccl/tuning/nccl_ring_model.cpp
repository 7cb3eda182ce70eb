#include "nccl_ring_model.h"

#include "nccl_intra_search.h"
#include "nccl_tree_costs.h"

#include <algorithm>
#include <cmath>

namespace ringsim {
namespace {


// The ring's constants of one era of tuning.cc, in microseconds. Read in NCCL's sources at 2.7.5,
// a 2.17 tree, 2.20.3 and a 2.23+ tree; the boundaries between those are the releases that changed them.
struct RingConstants {
  double base[3];
  double nvlink[3];
  double pcie[3];
  double net[3];
  double net_tree[3];       // 2.23+: with one rank per node the network hop is the tree's
  bool inter_steps_2n;      // 2.12-2.22 count 2 x nodes network steps, others 2 x (nodes - 1)
  bool ll_intra_slower;     // before 2.19: LL's intra-node hop x 1.8 on several nodes
  bool net_overhead;        // 2.19+: every hop of a multi-node ring costs at least the proxy's post (1 us, x3 Simple)
  bool plateau_per_channel; // 2.19+: the plateau applies from 64 bytes per channel and rank (else nRanks/16 x 64 KiB)
  bool ll128_one_per_node_slower;  // before 2.23: LL128 x 0.7 instead of 0.92 with under 2 ranks per node
  bool one_hop_kind;        // 2.5-2.6: every step at one hop latency (the network's across nodes)
  bool simple_plateau;      // 2.7+: a multi-node Simple ring's latency x 1.9 (or 1.4) from a size on
  double ll128_total_cap;   // 2.5-2.6: LL128 at 120/128 of the bus, at most this many GB/s (0: later rule)
};

// 2.5.6 and 2.6 (NVIDIA/nccl at cabd3ec and b221128: ncclSetThresholds / ncclTopoSetThresholds);
// also the closed form printed for 2.4, which had no model of its own (the nearest that exists).
constexpr RingConstants kNccl25{{3.6, 3.6, 8.4}, {.4, 2.5, 5.7}, {1.0, 2.5, 5.7}, {.9, 2.5, 6.6}, {.9, 2.5, 6.6},
                                false, false, false, false, false, true, false, 100.0};
constexpr RingConstants kNccl27{{3.6, 10.0, 8.4}, {.47, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 9.6}, {2.7, 4.0, 9.6},
                                false, true, false, false, true, false, true, 0};
constexpr RingConstants kNccl212{{3.6, 10.0, 8.4}, {.47, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 9.6}, {2.7, 4.0, 9.6},
                                 true, true, false, false, true, false, true, 0};
constexpr RingConstants kNccl219{{6.6, 14.0, 8.4}, {.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}, {2.7, 4.0, 14.0},
                                 true, false, true, true, true, false, true, 0};
constexpr RingConstants kNccl223{{6.6, 14.0, 8.4}, {.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}, {5.0, 8.5, 14.0},
                                 false, false, true, true, false, false, true, 0};

const RingConstants& constants_of(const NcclVersion& v) {
  if (v.at_least(2, 23)) return kNccl223;
  if (v.at_least(2, 19)) return kNccl219;
  if (v.at_least(2, 12)) return kNccl212;
  if (v.at_least(2, 7)) return kNccl27;
  return kNccl25;
}

// LL's bus bandwidth factor: 1/4 before 2.21 (the flag halves the payload, the polling halves again), 1/2 after.
double ll_factor(const NcclVersion& v) { return v.at_least(2, 21) ? 0.5 : 0.25; }

// Per-channel caps in GB/s (llMaxBws, ll128 per-channel maxima) for Intel hosts, by GPU generation.
int generation(int compute_capability) { return compute_capability >= 90 ? 2 : compute_capability >= 80 ? 1 : 0; }

double ll_max_GBps(const NcclCase& c) {
  const int by_nodes = c.nodes <= 2 ? c.nodes - 1 : 2;
  const int row = c.nodes == 1 ? generation(c.compute_capability) : 0;  // across nodes: the CPU's row (Intel)
  static constexpr double before_223[3][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {87.7, 22.5, 19.0}};
  static constexpr double since_223[3][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}};
  return (c.version.at_least(2, 23) ? since_223 : before_223)[row][by_nodes];
}

double ll128_max_GBps_per_channel(const NcclCase& c) {
  if (!c.version.at_least(2, 8)) return 16.7;  // 2.7's ll128MaxBwPerCh for allreduce
  if (!c.version.at_least(2, 10)) return 16.9;  // 2.8-2.9's; one value for every collective from 2.10
  return generation(c.compute_capability) == 2 ? 36.7 : 20.0;
}

// The ring's network hop latencies, us, per protocol (2.23 on, one rank per node: the tree's own).
const double* ring_network_hop_us(const RingConstants& k, const NcclCase& c) { return c.ranks == c.nodes ? k.net_tree : k.net; }

}  // namespace

double nccl_network_hop_us(const NcclCase& c, double hw_us, NcclProtocol protocol) {
  const double plugin_us = c.net_latency_us;
  if (plugin_us <= 0 || !c.version.at_least(2, 12)) return hw_us;
  if (!c.version.at_least(2, 18)) return plugin_us;
  return hw_us + (protocol == NcclProtocol::simple ? 2 : 1) * plugin_us;
}

int nccl_protocol_index(NcclProtocol protocol) {
  return protocol == NcclProtocol::ll ? kNcclLL : protocol == NcclProtocol::ll128 ? kNcclLL128 : kNcclSimple;
}

double nccl_ring_bus_GBps(const NcclCase& c, NcclProtocol protocol) {
  const RingConstants& k = constants_of(c.version);
  const int p = nccl_protocol_index(protocol);
  const double ppn = static_cast<double>(c.ranks) / c.nodes;
  // The search's channels at its per-channel bandwidth, then the protocol's factor.
  double bus_GBps = c.search_channels * c.channel_bandwidth_Bps / 1e9;
  if (p == kNcclLL) {
    bus_GBps *= ll_factor(c.version);
    if (c.version.at_least(2, 8)) bus_GBps = std::min(ll_max_GBps(c), bus_GBps);  // llMaxBws came with 2.8
  }
  if (p == kNcclLL128 && k.ll128_total_cap > 0) bus_GBps = std::min(bus_GBps * 120 / 128, k.ll128_total_cap);
  else if (p == kNcclLL128)
    bus_GBps = std::min(bus_GBps * (k.ll128_one_per_node_slower && ppn < 2 ? 0.7 : 0.92),
                        c.search_channels * ll128_max_GBps_per_channel(c));
  return bus_GBps;
}

NcclPrediction nccl_ring_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes) {
  const RingConstants& k = constants_of(c.version);
  const int p = nccl_protocol_index(protocol);
  const double steps = 2.0 * (c.ranks - 1);
  const double algbw_GBps = nccl_ring_bus_GBps(c, protocol) * c.ranks / steps;
  // Latency, us.
  double intra = (c.nvlink ? k.nvlink : k.pcie)[p];
  double inter = nccl_network_hop_us(c, ring_network_hop_us(k, c)[p], protocol);
  if (c.nodes == 1) inter = intra;
  if (k.ll_intra_slower && c.nodes > 1 && p == kNcclLL) intra *= 1.8;
  if (k.net_overhead && c.nodes > 1) intra = std::max(intra, p == kNcclSimple ? 3.0 : 1.0);
  double inter_steps = c.nodes == 1 ? 0 : k.inter_steps_2n ? 2.0 * c.nodes : 2.0 * (c.nodes - 1);
  if (k.one_hop_kind) inter_steps = c.nodes == 1 ? 0 : steps;  // across nodes every step is a network hop
  double latency_us = k.base[p] + (steps - inter_steps) * intra + inter_steps * inter;
  if (p == kNcclSimple && c.nodes > 1 && k.simple_plateau) {
    const double b = static_cast<double>(bytes);
    const bool plateau = k.plateau_per_channel ? b / (static_cast<double>(c.channels) * c.ranks) >= 64
                                               : b >= c.ranks / 16.0 * 65536;
    const double factor = k.plateau_per_channel ? (c.compute_capability < 80 ? 1.9 : 1.4)
                                                : (c.compute_capability < 90 ? 1.9 : 1.5);
    if (plateau) latency_us *= c.version.at_least(2, 12) ? factor : 1.9;
  }
  NcclPrediction prediction;
  prediction.protocol = protocol;
  prediction.latency_s = latency_us * 1e-6;
  prediction.algbw_Bps = algbw_GBps * 1e9;
  prediction.time_s = prediction.latency_s + static_cast<double>(bytes) / prediction.algbw_Bps;
  return prediction;
}

NcclHandshake nccl_simple_handshake(const NcclCase& c) {
  const RingConstants& k = constants_of(c.version);
  const double* intra = c.nvlink ? k.nvlink : k.pcie;
  return {(intra[kNcclSimple] - intra[kNcclLL]) * 1e-6, (k.net[kNcclSimple] - k.net[kNcclLL]) * 1e-6};
}
NcclHandshake nccl_ll128_hop_extra(const NcclCase& c) {
  const RingConstants& k = constants_of(c.version);
  const double* intra = c.nvlink ? k.nvlink : k.pcie;
  const double* net = ring_network_hop_us(k, c);
  return {(intra[kNcclLL128] - intra[kNcclLL]) * 1e-6, (net[kNcclLL128] - net[kNcclLL]) * 1e-6};
}
double nccl_ll_max_GBps(const NcclCase& c) { return ll_max_GBps(c); }

bool nccl_protocol_enabled(const NcclCase& c, NcclProtocol protocol) {
  if (protocol != NcclProtocol::ll128) return protocol != NcclProtocol::auto_choice;
  if (!nccl_has_protocol(c.version, protocol)) return false;
  const int cc = c.compute_capability;
  const bool nic_near = c.nodes == 1 || c.nic_beside_gpu;  // one node: no NIC on the path (PIX)
  if (!c.version.at_least(2, 7)) return c.nvlink && nic_near && cc == 70;  // Volta only before 2.7
  return c.nvlink && nic_near && (cc == 70 || cc == 80 || (cc == 90 && c.version.at_least(2, 16)));
}

namespace {

// NCCL 2.4 had no time model: enqueue.cc's getKernelInfo takes LL up to a threshold that grows with
// the threads and channels LL would use (bytes per thread 64 from Volta on, 32 before, doubled on
// several nodes; LL itself at most 8 per thread and 256 threads), Simple above.
struct Nccl24Launch {
  double per_thread, threads, channels;
};
Nccl24Launch nccl24_launch(const NcclCase& c, std::uint64_t bytes) {
  const double per_thread = (c.compute_capability >= 70 ? 64.0 : 32.0) * (c.nodes > 1 ? 2 : 1);
  const double per_thread_ll = std::min(per_thread, 8.0);
  const double b = static_cast<double>(bytes), chunks = c.ranks;  // a ring allreduce loop is N chunks
  double threads = 64;
  while (std::ceil(b / (threads * chunks)) > per_thread_ll && 2 * threads <= 256) threads *= 2;
  const double channels = std::clamp(std::ceil(b / (threads * chunks * per_thread_ll)), 1.0, static_cast<double>(c.channels));
  return {per_thread, threads, channels};
}

NcclProtocol nccl24_protocol(const NcclCase& c, std::uint64_t bytes) {
  const Nccl24Launch launch = nccl24_launch(c, bytes);
  const double b = static_cast<double>(bytes), chunks = c.ranks;
  return b <= launch.channels * launch.threads * chunks * launch.per_thread ? NcclProtocol::ll : NcclProtocol::simple;
}

}  // namespace

int nccl24_ll_channels(const NcclCase& c, std::uint64_t bytes) { return static_cast<int>(nccl24_launch(c, bytes).channels); }

NcclPrediction nccl_predict(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes) {
  if (requested != NcclProtocol::auto_choice) return nccl_ring_time(c, requested, bytes);
  if (!c.version.at_least(2, 5)) return nccl_ring_time(c, nccl24_protocol(c, bytes), bytes);
  NcclPrediction best = nccl_ring_time(c, NcclProtocol::simple, bytes);
  for (NcclProtocol candidate : {NcclProtocol::ll, NcclProtocol::ll128})
    if (nccl_protocol_enabled(c, candidate))
      if (NcclPrediction t = nccl_ring_time(c, candidate, bytes); t.time_s < best.time_s) best = t;
  return best;
}

NcclTopologyFacts nccl_topology_facts(const Topology& topology) {
  NcclTopologyFacts facts;
  bool first = true;
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes) {
      if (first || node.nic.bandwidth_Bps * node.nics < facts.nic_bandwidth_Bps * facts.nics) {
        facts.nic_bandwidth_Bps = node.nic.bandwidth_Bps;
        facts.nics = node.nics;
      }
      if (first || node.intra.bandwidth_Bps < facts.intra_bandwidth_Bps) {
        facts.intra_bandwidth_Bps = node.intra.bandwidth_Bps;
        facts.nvlink_links = node.nvlink_links;
      }
      facts.nvlink = (first || facts.nvlink) && node.intra_kind == IntraKind::nvlink;
      first = false;
      NcclNodeFacts& each = facts.nodes.emplace_back();
      each.nic_bandwidth_Bps = node.nic.bandwidth_Bps;
      each.port_bandwidth_Bps = node.intra_ports ? node.intra.bandwidth_Bps : 0;
      each.switch_bandwidth_Bps = node.pcie_switch.bandwidth_Bps;
      each.gdr = node.gdr;
      if (stages_over_host_pcie(node)) each.host_pcie_bandwidth_Bps = node.host_pcie.bandwidth_Bps;
      for (int k = 0; k < pcie_switches(node); ++k) each.switch_links.push_back(pcie_switch_name(node, k));
      for (int k = 0; k < node.nics; ++k) each.nic_links.push_back(nic_link_name(node, k));
      for (int g = 0; g < node.gpus; ++g) {
        each.nic_of_gpu.push_back(nic_of_gpu(node, g));
        each.nic_beside_gpu.push_back(nic_beside_gpu(node, g));
        if (node.intra_ports) each.port_links.push_back(intra_port_name(node, g));
        each.switch_of_gpu.push_back(pcie_switch_of_gpu(node, g));
        if (stages_over_host_pcie(node)) each.host_pcie_links.push_back(host_pcie_name(node, g));
      }
    }
  return facts;
}

// NVLS needs the NVSwitch's multicast: NVLink ports into a switch and Hopper or later GPUs
// (transport/nvls.cc ncclNvlsInit, search.cc: no NVS node or compute capability below 90, no NVLS).
bool nccl_nvls_hardware(const NcclSettings& settings, const NcclTopologyFacts& facts, bool version_has_it) {
  return version_has_it && settings.compute_capability >= 90 && facts.nvlink && !facts.nodes.empty() &&
         std::all_of(facts.nodes.begin(), facts.nodes.end(), [](const NcclNodeFacts& node) { return node.port_bandwidth_Bps > 0; });
}

// The NVLS search's heads (GPUS per node) and their NVLink bandwidth each.
void nccl_set_nvls(NcclCase& c, const NcclSettings& settings, const NcclTopologyFacts& facts, int gpus) {
  const int links = facts.nvlink_links > 0 ? facts.nvlink_links : nvlink_links(facts.intra_bandwidth_Bps, settings.compute_capability);
  const NcclIntraSearch nvls = nccl_nvls_search(settings.version, settings.compute_capability, links, gpus);
  c.nvls_channels = nvls.channels;
  c.nvls_channel_Bps = nvls.bandwidth_GBps * 1e9;
}

NcclCase nccl_case(const NcclSettings& settings, const NcclTopologyFacts& facts, int ranks, int nodes) {
  NcclCase c;
  c.version = settings.version;
  c.compute_capability = settings.compute_capability;
  c.net_latency_us = settings.net_latency_s * 1e6;
  c.ranks = ranks;
  c.nodes = std::max(1, nodes);
  c.nvlink = facts.nvlink;
  c.nic_beside_gpu = !facts.nodes.empty() && std::all_of(facts.nodes.begin(), facts.nodes.end(), [](const NcclNodeFacts& node) {
    return std::all_of(node.nic_beside_gpu.begin(), node.nic_beside_gpu.end(), [](int nic) { return nic >= 0; });
  });
  // Across nodes the search builds one ring channel per NIC at the NIC's rate; inside one NVSwitch node
  // as many as the GPUs' NVLink holds (nccl_intra_search.h), inside one PCIe node one channel at its
  // rate. From 2.5 on the communicator then doubles the channels (connect.cc); 2.4 runs the search's
  // (the public 2.4.7 runs log one channel, the 2.6.4 runs two).
  c.search_channels = c.nodes > 1 ? std::max(1, facts.nics) : 1;
  c.channel_bandwidth_Bps = c.nodes > 1 ? facts.nic_bandwidth_Bps : facts.intra_bandwidth_Bps;
  if (c.nodes == 1 && facts.nvlink && settings.version.at_least(2, 5)) {
    const int links = facts.nvlink_links > 0 ? facts.nvlink_links : nvlink_links(facts.intra_bandwidth_Bps, settings.compute_capability);
    const NcclIntraSearch search = nccl_nvswitch_search(settings.version, settings.compute_capability, links);
    c.search_channels = search.channels;
    c.channel_bandwidth_Bps = search.bandwidth_GBps * 1e9;
  }
  const int doubled = settings.version.at_least(2, 5) ? 2 : 1;
  c.channels = settings.channels.value_or(std::min(doubled * c.search_channels, kNcclMaxChannels));
  if (c.nodes == 1 && c.ranks >= 2 && nccl_nvls_hardware(settings, facts, settings.version.at_least(2, 17))) nccl_set_nvls(c, settings, facts, c.ranks);
  return c;
}

NcclTreeHops nccl_tree_hops(const NcclCase& c) {
  // Less the ring's network step as nccl_ring_time charges it.
  const double* ring = ring_network_hop_us(constants_of(c.version), c);
  return {std::max(0.0, nccl_tree_net_hop_us(c.version, NcclProtocol::ll) - ring[kNcclLL]) * 1e-6,
          std::max(0.0, nccl_tree_net_hop_us(c.version, NcclProtocol::ll128) - ring[kNcclLL128]) * 1e-6};
}

}  // namespace ringsim
