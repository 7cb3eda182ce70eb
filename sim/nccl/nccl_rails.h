// Which NICs and GPU ports NCCL's ring channels use for a placement (the rings of
// sim/rank/nccl_channel_rings.h, the same the rank program runs), and the bus bandwidth NCCL's search
// would find for them: ranks beside k different NICs give the ring k NICs' worth of bandwidth, ranks
// that share a NIC share it, and a node's GPU ports (NVLink into an NVSwitch, or PCIe to host memory
// and the uplinks of PCIe switches GPUs share, which transfers staged in host memory cross) cap it.
#pragma once

#include "tuning/nccl_settings.h"
#include "../model/placement.h"

#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// The NIC beside every rank's GPU (-1: none of its own), in rank order; ranks use a node's GPUs in order.
std::vector<int> nccl_rail_of_ranks(const NcclTopologyFacts& facts, const PlacementSpec& placement);

// The kinds of link a channel crosses on its way between GPUs and nodes.
enum class NcclLinkKind { nic, gpu_port, pcie_switch, host_pcie, rail_uplink, rail_spine };
// "NIC", "NVLink port" (NVLINK; else "GPU port"), "PCIe switch uplink", "host PCIe link", "rail leaf uplink",
// "rail spine".
std::string_view nccl_link_kind_name(NcclLinkKind kind, bool nvlink);

// Where one channel's ring crosses one node's boundary.
struct NcclChannelNics {
  int channel = 0;
  int node = 0;      // index in the topology's node order
  int nic_in = 0;    // the NIC the ring enters the node through
  int nic_out = 0;   // and leaves it through
};

struct NcclRailUse {
  int search_channels = 1;      // one per NIC beside the ranks, as many on every node as on the fewest
  double bus_bandwidth_Bps = 0;  // the channels' total at the busiest NIC direction or GPU port
  std::string bottleneck;       // that link direction, e.g. "node0-nic3 up" or "node2-gpu5-nvlink down"
  NcclLinkKind bottleneck_kind = NcclLinkKind::nic;
  int bottleneck_crossings = 0;       // how many channels' hops (or tree edges) cross it
  double bottleneck_link_Bps = 0;     // its rate
  std::vector<NcclChannelNics> crossings;  // every channel at every node it crosses
};

// CHANNELS rings over PLACEMENT's ranks on several nodes (with a single node nothing crosses a NIC:
// search_channels 1 and no bandwidth). On a rail fabric a hop between NICs of two rails crosses both
// rails' uplinks and the spine, unless PXN (PlatformModel::nccl_pxn, the routes' own) sends it through
// the NVLink peer beside the receiving NIC's rail: then that peer's port and that rail's NIC.
NcclRailUse nccl_rail_use(const NcclTopologyFacts& facts, const PlacementSpec& placement, int channels, bool pxn);

// The same for CHANNELS channels of NCCL's tree (sim/rank/nccl_trees.h, each channel's chains starting
// beside its NIC as its ring does): every edge between nodes carries its channel's share once each way
// in each direction, so the bottleneck is the NIC direction the most tree edges cross (crossings: its
// count); bus_bandwidth_Bps is that link's rate x channels / edges, and `crossings` is left empty.
NcclRailUse nccl_tree_nic_use(const NcclTopologyFacts& facts, const PlacementSpec& placement, int channels);

}  // namespace ringsim
