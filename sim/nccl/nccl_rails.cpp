#include "nccl_rails.h"

#include "../rank/nccl_channel_rings.h"
#include "../rank/nccl_trees.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <tuple>

namespace ringsim {
namespace {

// A link direction a channel's hop crosses: (node, kind, index, up). kind 0: a NIC, 1: a GPU's port,
// 2: a PCIe switch's uplink, 3: a GPU's PCIe link to host memory beside NVLink; on a rail fabric
// (node 0) 4: a rail leaf's uplink to the spine, 5: the spine (both directions share it).
using Direction = std::tuple<int, int, int, bool>;
constexpr int kRailUplink = 4, kRailSpine = 5;

// The bandwidth and name of a link direction.
std::pair<double, std::string> direction_link(const NcclTopologyFacts& facts, const Direction& direction) {
  const auto& [node, kind, index, up] = direction;
  const char* way = up ? "up" : "down";
  if (kind == kRailUplink)
    return {facts.rail_fabric->uplink_bandwidth_Bps, fmt::format("{} {}", facts.rail_fabric->uplink_links.at(static_cast<std::size_t>(index)), way)};
  if (kind == kRailSpine) return {facts.rail_fabric->spine_bandwidth_Bps, facts.rail_fabric->spine_link};
  const NcclNodeFacts& spec = facts.nodes.at(static_cast<std::size_t>(node));
  const double bandwidth = kind == 0   ? spec.nic_bandwidth_Bps
                           : kind == 1 ? spec.port_bandwidth_Bps
                           : kind == 2 ? spec.switch_bandwidth_Bps
                                       : spec.host_pcie_bandwidth_Bps;
  const auto& names = kind == 0 ? spec.nic_links : kind == 1 ? spec.port_links : kind == 2 ? spec.switch_links : spec.host_pcie_links;
  return {bandwidth, fmt::format("{} {}", names.at(static_cast<std::size_t>(index)), way)};
}

// Each channel carries 1/CHANNELS of the data: a link direction crossed K times carries K/CHANNELS.
// Sets USE's bus bandwidth and names its bottleneck (a non-blocking spine, bandwidth 0, never is).
void set_bottleneck(const NcclTopologyFacts& facts, const std::map<Direction, int>& crossings, int channels, NcclRailUse& use) {
  use.bus_bandwidth_Bps = std::numeric_limits<double>::infinity();
  for (const auto& [direction, count] : crossings) {
    const auto [bandwidth, name] = direction_link(facts, direction);
    if (bandwidth <= 0) continue;
    const double bus = bandwidth * channels / count;
    if (bus < use.bus_bandwidth_Bps) {
      use.bus_bandwidth_Bps = bus;
      use.bottleneck = name;
      use.bottleneck_kind = static_cast<NcclLinkKind>(std::get<1>(direction));
      use.bottleneck_crossings = count;
      use.bottleneck_link_Bps = bandwidth;
    }
  }
}

// The GPU of NODE beside NIC that PXN sends through for another GPU of it (PlatformPlan::pxn_proxy).
int pxn_proxy(const NcclNodeFacts& node, int gpu, int nic) {
  if (node.port_bandwidth_Bps <= 0) return -1;
  for (std::size_t g = 0; g < node.nic_beside_gpu.size(); ++g)
    if (static_cast<int>(g) != gpu && node.nic_beside_gpu[g] == nic) return static_cast<int>(g);
  return -1;
}

// On a rail fabric, a hop from GPU of NODE through NIC RAIL_OUT to NIC RAIL_IN of another node: under
// PXN the GPU it hands the send to, the NVLink peer beside NIC RAIL_IN; -1 where it sends itself, a hop
// between rails then crossing both rails' uplinks and the spine (counted here).
int rail_crossings(const NcclTopologyFacts& facts, int node, int gpu, int rail_out, int rail_in, bool pxn,
                   std::map<Direction, int>& crossings) {
  if (!facts.rail_fabric || rail_out == rail_in) return -1;
  if (const int proxy = pxn && facts.nvlink ? pxn_proxy(facts.nodes.at(static_cast<std::size_t>(node)), gpu, rail_in) : -1; proxy >= 0)
    return proxy;
  ++crossings[{0, kRailUplink, rail_out, true}];
  ++crossings[{0, kRailSpine, 0, true}];
  ++crossings[{0, kRailUplink, rail_in, false}];
  return -1;
}

// Channel C's way out of node FROM (the ring's own end, NIC OUT: under PXN its data leaves through the
// proxy's NIC) and into node TO (NIC IN), kept per (channel, node).
void note_ends(std::map<std::pair<int, int>, NcclChannelNics>& ends, int c, int from, int out, int to, int in) {
  ends.try_emplace({c, to}, NcclChannelNics{c, to}).first->second.nic_in = in;
  ends.try_emplace({c, from}, NcclChannelNics{c, from}).first->second.nic_out = out;
}

// A placement's ranks as NCCL's channels see them: the node, GPU slot and NIC beside each, and the
// rings of CHANNELS channels over them (on one node nothing crosses a NIC: no rings).
struct PlacedRanks {
  std::vector<int> nodes, rails, gpus;
  int size = 0;
  int search_channels = 1;
  bool one_node = true;
  std::vector<std::vector<int>> rings;
  PlacedRanks(const NcclTopologyFacts& facts, const PlacementSpec& placement, int channels)
      : nodes(node_of_ranks(placement)), rails(nccl_rail_of_ranks(facts, placement)), gpus(slot_of_ranks(nodes)),
        size(static_cast<int>(nodes.size())), search_channels(nccl_search_rails(nodes, rails)),
        one_node(std::all_of(nodes.begin(), nodes.end(), [&](int node) { return node == nodes.front(); })) {
    if (!one_node) rings = nccl_channel_rings(size, nodes, rails, channels);
  }
};

int nic_of_rank(const NcclTopologyFacts& facts, const std::vector<int>& nodes, const std::vector<int>& gpus, int rank) {
  const NcclNodeFacts& node = facts.nodes.at(static_cast<std::size_t>(nodes[static_cast<std::size_t>(rank)]));
  return node.nic_of_gpu.at(static_cast<std::size_t>(gpus[static_cast<std::size_t>(rank)]));
}

}  // namespace

std::vector<int> nccl_rail_of_ranks(const NcclTopologyFacts& facts, const PlacementSpec& placement) {
  const std::vector<int> nodes = node_of_ranks(placement);
  const std::vector<int> gpus = slot_of_ranks(nodes);
  std::vector<int> rails(nodes.size(), 0);
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const auto node = static_cast<std::size_t>(nodes[r]);
    if (node < facts.nodes.size() && static_cast<std::size_t>(gpus[r]) < facts.nodes[node].nic_beside_gpu.size())
      rails[r] = facts.nodes[node].nic_beside_gpu[static_cast<std::size_t>(gpus[r])];
  }
  return rails;
}

std::string_view nccl_link_kind_name(NcclLinkKind kind, bool nvlink) {
  switch (kind) {
    case NcclLinkKind::nic: return "NIC";
    case NcclLinkKind::gpu_port: return nvlink ? "NVLink port" : "GPU port";
    case NcclLinkKind::pcie_switch: return "PCIe switch uplink";
    case NcclLinkKind::host_pcie: return "host PCIe link";
    case NcclLinkKind::rail_uplink: return "rail leaf uplink";
    case NcclLinkKind::rail_spine: return "rail spine";
  }
  return "link";
}

NcclRailUse nccl_rail_use(const NcclTopologyFacts& facts, const PlacementSpec& placement, int channels, bool pxn) {
  const PlacedRanks placed(facts, placement, channels);
  NcclRailUse use;
  use.search_channels = placed.search_channels;
  if (placed.one_node) return use;
  const std::vector<int>& nodes = placed.nodes;
  const std::vector<int>& gpus = placed.gpus;
  const int size = placed.size;

  std::map<Direction, int> crossings;  // per link direction
  // RANK's way into its node's fabric (nothing on a shared bus): its port and its PCIe switch's uplink.
  auto fabric_way = [&](int rank, bool up) {
    const NcclNodeFacts& node = facts.nodes.at(static_cast<std::size_t>(nodes[rank]));
    if (node.port_bandwidth_Bps <= 0) return;
    ++crossings[{nodes[rank], 1, gpus[rank], up}];
    const auto gpu = static_cast<std::size_t>(gpus[rank]);
    if (gpu < node.switch_of_gpu.size() && node.switch_of_gpu[gpu] >= 0) ++crossings[{nodes[rank], 2, node.switch_of_gpu[gpu], up}];
  };
  // RANK's way to host memory, as a transfer staged there crosses it: its own PCIe link beside NVLink,
  // else its fabric way.
  auto to_host = [&](int rank, bool up) {
    const NcclNodeFacts& node = facts.nodes.at(static_cast<std::size_t>(nodes[rank]));
    if (node.host_pcie_bandwidth_Bps <= 0) return fabric_way(rank, up);
    ++crossings[{nodes[rank], 3, gpus[rank], up}];
  };
  auto gdr = [&](int rank) { return facts.nodes.at(static_cast<std::size_t>(nodes[rank])).gdr; };
  std::map<std::pair<int, int>, NcclChannelNics> ends;  // (channel, node) -> where it enters and leaves
  auto nic_of = [&](int rank) { return nic_of_rank(facts, nodes, gpus, rank); };
  for (int c = 0; c < channels; ++c) {
    const std::vector<int>& ring = placed.rings[static_cast<std::size_t>(c)];
    for (int i = 0; i < size; ++i) {
      const int from = ring[static_cast<std::size_t>(i)], to = ring[static_cast<std::size_t>((i + 1) % size)];
      if (nodes[from] == nodes[to]) {
        fabric_way(from, true);
        fabric_way(to, false);
        continue;
      }
      const int rail_in = nic_of(to);
      int rail_out = nic_of(from);
      if (const int proxy = rail_crossings(facts, nodes[from], gpus[from], rail_out, rail_in, pxn, crossings); proxy >= 0) {
        fabric_way(from, true);  // PXN: over NVLink to the peer beside TO's rail's NIC, out through that NIC
        ++crossings[{nodes[from], 1, proxy, false}];
        rail_out = rail_in;
      }
      ++crossings[{nodes[from], 0, rail_out, true}];
      ++crossings[{nodes[to], 0, rail_in, false}];
      // Without GPUDirect RDMA NCCL's network buffers are in host memory (net.cc).
      if (!gdr(from)) to_host(from, true);
      if (!gdr(to)) to_host(to, false);
      note_ends(ends, c, nodes[from], nic_of(from), nodes[to], rail_in);
    }
  }
  for (const auto& [key, entry] : ends) use.crossings.push_back(entry);
  set_bottleneck(facts, crossings, channels, use);
  return use;
}

NcclRailUse nccl_tree_nic_use(const NcclTopologyFacts& facts, const PlacementSpec& placement, int channels) {
  const PlacedRanks placed(facts, placement, channels);
  NcclRailUse use;
  use.search_channels = placed.search_channels;
  if (placed.one_node) return use;
  std::map<Direction, int> crossings;
  const std::vector<int>& nodes = placed.nodes;
  for (int c = 0; c < channels; ++c) {
    const std::vector<RankTreeLinks> links =
        nccl_tree_links(placed.size, nodes, nccl_tree_of_channel(c, channels), placed.rings[static_cast<std::size_t>(c)]);
    for (int rank = 0; rank < placed.size; ++rank)
      for (int child : links[static_cast<std::size_t>(rank)].children) {
        if (nodes[static_cast<std::size_t>(child)] == nodes[static_cast<std::size_t>(rank)]) continue;
        // The reduction goes up the edge, the broadcast down: both NICs carry it both ways.
        for (int end : {rank, child})
          for (bool up : {true, false})
            ++crossings[{nodes[static_cast<std::size_t>(end)], 0, nic_of_rank(facts, nodes, placed.gpus, end), up}];
      }
  }
  set_bottleneck(facts, crossings, channels, use);
  return use;
}

}  // namespace ringsim
