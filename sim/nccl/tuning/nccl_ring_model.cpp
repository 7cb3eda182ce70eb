#include "nccl_ring_model.h"

#include "nccl_intra_search.h"
#include "nccl_tree_costs.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ringsim {
namespace {

// LL's cap (llMaxBws, GB/s) for Intel hosts: by GPU generation on one node, the CPU's row across nodes.
double ll_max_GBps(const NcclCase& c) {
  const int row = c.nodes == 1 ? nccl_gpu_generation(c.compute_capability) : 0;
  return c.release->ll_max_GBps[static_cast<std::size_t>(row)][static_cast<std::size_t>(nccl_node_class(c.nodes))];
}

// The ring's hop latencies, us, per protocol, of hardware HOP (tuning.cc hwLat).
const std::array<double, 3>& ring_hop_us(const NcclCase& c, int hop) { return c.release->hop_latency_us[hop][kNcclRing]; }

// The ring's network hop latencies, us, per protocol (one rank per node: the tree's, where the release says).
const std::array<double, 3>& ring_network_hop_us(const NcclCase& c) {
  const NcclRelease& r = *c.release;
  return r.hop_latency_us[kNcclNetHop][r.ring_one_per_node_tree_hop && c.ranks == c.nodes ? kNcclTree : kNcclRing];
}

const std::array<double, 3>& ring_intra_hop_us(const NcclCase& c) { return ring_hop_us(c, c.nvlink ? kNcclNvlinkHop : kNcclPciHop); }

}  // namespace

double nccl_network_hop_us(const NcclCase& c, double hw_us, NcclProtocol protocol) {
  const double plugin_us = c.net_latency_us;
  if (plugin_us <= 0 || c.release->plugin_latency == NcclPluginLatency::ignored) return hw_us;
  if (c.release->plugin_latency == NcclPluginLatency::instead_of_hardware) return plugin_us;
  return hw_us + (protocol == NcclProtocol::simple ? 2 : 1) * plugin_us;
}

int nccl_protocol_index(NcclProtocol protocol) {
  return protocol == NcclProtocol::ll ? kNcclLL : protocol == NcclProtocol::ll128 ? kNcclLL128 : kNcclSimple;
}

double nccl_ring_bus_GBps(const NcclCase& c, NcclProtocol protocol, NcclFunction function) {
  const NcclRelease& k = *c.release;
  const int p = nccl_protocol_index(protocol);
  const auto generation = static_cast<std::size_t>(nccl_gpu_generation(c.compute_capability));
  const double ppn = static_cast<double>(c.ranks) / c.nodes;
  // The search's channels at its per-channel bandwidth, then the protocol's factor.
  double bus_GBps = c.search_channels * c.channel_bandwidth_Bps / 1e9;
  // 2.7-2.20 give LL a third of the bus on one node for every function but all-reduce and reduce.
  const bool ll_third = c.nodes == 1 && k.ring_ll_one_node_copy_factor > 0 && function != NcclFunction::all_reduce &&
                        function != NcclFunction::reduce;
  if (p == kNcclLL) {
    bus_GBps *= ll_third ? k.ring_ll_one_node_copy_factor : k.ring_ll_factor;
    if (k.ll_max_bws) bus_GBps = std::min(ll_max_GBps(c), bus_GBps);
  }
  if (p == kNcclLL128 && k.ring_ll128_total_cap_GBps > 0) bus_GBps = std::min(bus_GBps * 120 / 128, k.ring_ll128_total_cap_GBps);
  else if (p == kNcclLL128) {
    const double by_function = k.ring_ll128_per_channel_by_function_GBps[static_cast<std::size_t>(function)];
    bus_GBps = std::min(bus_GBps * (k.ring_ll128_one_per_node_slower && ppn < 2 ? 0.7 : 0.92),
                        c.search_channels * (by_function > 0 ? by_function : k.ring_ll128_per_channel_GBps[generation]));
  }
  return bus_GBps;
}

namespace {

// tuning.cc's nsteps of FUNCTION's ring on N ranks.
double ring_steps(NcclFunction function, int ranks) {
  if (function == NcclFunction::all_reduce) return 2.0 * (ranks - 1);
  if (function == NcclFunction::all_gather || function == NcclFunction::reduce_scatter) return ranks - 1.0;
  return ranks;
}

// Broadcast's and reduce's chain: every step at the hop's latency of the hardware the ring crosses (the
// network's across nodes), Simple at the tree's ("some chunk latency": tuning.cc, rings whose channels
// are not all alike).
double chain_latency_us(const NcclCase& c, int p, double steps) {
  const int hop = c.nodes > 1 ? kNcclNetHop : c.nvlink ? kNcclNvlinkHop : kNcclPciHop;
  const double hop_us = c.release->hop_latency_us[hop][p == kNcclSimple ? kNcclTree : kNcclRing][p];
  return c.release->base_latency_us[kNcclRing][p] + steps * hop_us;
}

}  // namespace

NcclPrediction nccl_ring_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes, NcclFunction function) {
  const NcclRelease& k = *c.release;
  const int p = nccl_protocol_index(protocol);
  const double steps = ring_steps(function, c.ranks);
  const double algbw_GBps = nccl_ring_bus_GBps(c, protocol, function) * c.ranks / steps;
  if (function == NcclFunction::broadcast || function == NcclFunction::reduce)
    return nccl_prediction(protocol, chain_latency_us(c, p, steps) * 1e-6, algbw_GBps * 1e9, bytes);
  // Latency, us.
  double intra = ring_intra_hop_us(c)[p];
  double inter = nccl_network_hop_us(c, ring_network_hop_us(c)[p], protocol);
  if (c.nodes == 1) inter = intra;
  if (k.ring_ll_intra_slower && c.nodes > 1 && p == kNcclLL) intra *= 1.8;
  if (k.ring_net_overhead && c.nodes > 1) intra = std::max(intra, p == kNcclSimple ? 3.0 : 1.0);
  const bool all_reduce = function == NcclFunction::all_reduce;
  double inter_steps = c.nodes == 1 ? 0 : !all_reduce ? c.nodes - 1.0 : k.ring_inter_steps_2n ? 2.0 * c.nodes : 2.0 * (c.nodes - 1);
  if (k.ring_one_hop_kind) inter_steps = c.nodes == 1 ? 0 : steps;  // across nodes every step is a network hop
  double latency_us = k.base_latency_us[kNcclRing][p] + (steps - inter_steps) * intra + inter_steps * inter;
  if (all_reduce && p == kNcclSimple && c.nodes > 1 && k.ring_simple_plateau) {
    const double b = static_cast<double>(bytes);
    const bool plateau = k.ring_plateau_per_channel ? b / (static_cast<double>(c.channels) * c.ranks) >= 64
                                                    : b >= c.ranks / 16.0 * 65536;
    if (plateau) latency_us *= k.ring_plateau_factor[static_cast<std::size_t>(nccl_gpu_generation(c.compute_capability))];
  }
  return nccl_prediction(protocol, latency_us * 1e-6, algbw_GBps * 1e9, bytes);
}

NcclPrediction nccl_prediction(NcclProtocol protocol, double latency_s, double algbw_Bps, std::uint64_t bytes) {
  NcclPrediction prediction;
  prediction.protocol = protocol;
  prediction.latency_s = latency_s;
  prediction.algbw_Bps = algbw_Bps;
  prediction.time_s = latency_s + static_cast<double>(bytes) / algbw_Bps;
  return prediction;
}

NcclHandshake nccl_simple_handshake(const NcclCase& c) {
  const std::array<double, 3>& intra = ring_intra_hop_us(c);
  const std::array<double, 3>& net = ring_hop_us(c, kNcclNetHop);
  return {(intra[kNcclSimple] - intra[kNcclLL]) * 1e-6, (net[kNcclSimple] - net[kNcclLL]) * 1e-6};
}
NcclHandshake nccl_ll128_hop_extra(const NcclCase& c) {
  const std::array<double, 3>& intra = ring_intra_hop_us(c);
  const std::array<double, 3>& net = ring_network_hop_us(c);
  return {(intra[kNcclLL128] - intra[kNcclLL]) * 1e-6, (net[kNcclLL128] - net[kNcclLL]) * 1e-6};
}
double nccl_ll_max_GBps(const NcclCase& c) { return ll_max_GBps(c); }

bool nccl_protocol_enabled(const NcclCase& c, NcclProtocol protocol) {
  if (protocol != NcclProtocol::ll128) return protocol != NcclProtocol::auto_choice;
  if (!nccl_has_protocol(*c.release, protocol)) return false;
  const std::array<int, 3>& gpus = c.release->ll128_gpus;
  const bool nic_near = c.nodes == 1 || c.nic_beside_gpu;  // one node: no NIC on the path (PIX)
  return c.nvlink && nic_near && std::find(gpus.begin(), gpus.end(), c.compute_capability) != gpus.end();
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

NcclPrediction nccl_predict(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes, NcclFunction function) {
  if (requested != NcclProtocol::auto_choice) return nccl_ring_time(c, requested, bytes, function);
  if (!c.release->time_model) return nccl_ring_time(c, nccl24_protocol(c, bytes), bytes, function);
  NcclPrediction best = nccl_ring_time(c, NcclProtocol::simple, bytes, function);
  for (NcclProtocol candidate : {NcclProtocol::ll, NcclProtocol::ll128})
    if (nccl_protocol_enabled(c, candidate))
      if (NcclPrediction t = nccl_ring_time(c, candidate, bytes, function); t.time_s < best.time_s) best = t;
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
      if (first) facts.nic_transport = node.nic_transport;
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
  if (const auto& rails = topology.rails) {
    NcclRailFabric& fabric = facts.rail_fabric.emplace();
    for (int k = 0; k < rails->rails; ++k) fabric.uplink_links.push_back(rail_uplink_name(k));
    fabric.uplink_bandwidth_Bps = rails->uplink.bandwidth_Bps;
    fabric.spine_link = kRailSpineLinkName;
    fabric.spine_bandwidth_Bps = rails->spine_nonblocking ? 0 : rails->spine.bandwidth_Bps;
  }
  return facts;
}

// NVLS needs the NVSwitch's multicast: NVLink ports into a switch and Hopper or later GPUs
// (transport/nvls.cc ncclNvlsInit, search.cc: no NVS node or compute capability below 90, no NVLS).
bool nccl_nvls_hardware(const NcclSettings& settings, const NcclTopologyFacts& facts, bool release_has_it) {
  return release_has_it && settings.compute_capability >= 90 && facts.nvlink && !facts.nodes.empty() &&
         std::all_of(facts.nodes.begin(), facts.nodes.end(), [](const NcclNodeFacts& node) { return node.port_bandwidth_Bps > 0; });
}

// The NVLS search's heads (GPUS per node) and their NVLink bandwidth each.
void nccl_set_nvls(NcclCase& c, const NcclSettings& settings, const NcclTopologyFacts& facts, int gpus) {
  const int links = facts.nvlink_links > 0 ? facts.nvlink_links : nvlink_links(facts.intra_bandwidth_Bps, settings.compute_capability);
  const NcclIntraSearch nvls = nccl_nvls_search(*settings.release, settings.compute_capability, links, gpus);
  c.nvls_channels = nvls.channels;
  c.nvls_channel_Bps = nvls.bandwidth_GBps * 1e9;
}

NcclCase nccl_case(const NcclSettings& settings, const NcclTopologyFacts& facts, int ranks, int nodes) {
  NcclCase c;
  c.version = settings.version;
  c.release = settings.release;
  c.compute_capability = settings.compute_capability;
  c.net_latency_us = settings.net_latency_s * 1e6;
  c.ranks = ranks;
  c.nodes = std::max(1, nodes);
  c.nvlink = facts.nvlink;
  c.net_path = nccl_net_path(facts.nic_transport);
  c.nic_beside_gpu = !facts.nodes.empty() && std::all_of(facts.nodes.begin(), facts.nodes.end(), [](const NcclNodeFacts& node) {
    return std::all_of(node.nic_beside_gpu.begin(), node.nic_beside_gpu.end(), [](int nic) { return nic >= 0; });
  });
  // Across nodes the search builds one ring channel per NIC at the NIC's rate; inside one NVSwitch node
  // as many as the GPUs' NVLink holds (nccl_intra_search.h), inside one PCIe node one channel at its
  // rate. From 2.5 on the communicator then doubles the channels (connect.cc); 2.4 runs the search's
  // (the public 2.4.7 runs log one channel, the 2.6.4 runs two).
  c.search_channels = c.nodes > 1 ? std::max(1, facts.nics) : 1;
  c.channel_bandwidth_Bps = c.nodes > 1 ? facts.nic_bandwidth_Bps : facts.intra_bandwidth_Bps;
  if (c.nodes == 1 && facts.nvlink && settings.release->nvswitch_search) {
    const int links = facts.nvlink_links > 0 ? facts.nvlink_links : nvlink_links(facts.intra_bandwidth_Bps, settings.compute_capability);
    const NcclIntraSearch search = nccl_nvswitch_search(*settings.release, settings.compute_capability, links);
    c.search_channels = search.channels;
    c.channel_bandwidth_Bps = search.bandwidth_GBps * 1e9;
  }
  c.channels = settings.channels.value_or(std::min(settings.release->channel_factor * c.search_channels, kNcclMaxChannels));
  if (c.nodes == 1 && c.ranks >= 2 && nccl_nvls_hardware(settings, facts, settings.release->nvls))
    nccl_set_nvls(c, settings, facts, c.ranks);
  return c;
}

NcclTreeHops nccl_tree_hops(const NcclCase& c) {
  // Less the ring's network step as nccl_ring_time charges it.
  const std::array<double, 3>& ring = ring_network_hop_us(c);
  return {std::max(0.0, nccl_tree_net_hop_us(*c.release, NcclProtocol::ll) - ring[kNcclLL]) * 1e-6,
          std::max(0.0, nccl_tree_net_hop_us(*c.release, NcclProtocol::ll128) - ring[kNcclLL128]) * 1e-6};
}

}  // namespace ringsim
