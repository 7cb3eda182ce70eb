// Compact topology -> SimGrid platform XML (v4.1).
//
// Shape: one Full-routed zone per rack holding one Full-routed zone per node (and, with several racks,
// a top zone joining the racks through their uplinks and the spine). Inside a node every GPU is a host;
// GPU<->GPU routes cross the node's bus (pcie, shm: one SHARED link) or the two GPUs' NVLink ports
// (nvlink: one split-duplex port per GPU into a non-blocking NVSwitch). GPU->router routes cross the
// GPU's NIC upward and router->GPU routes cross it downward (SPLITDUPLEX: each direction has the full
// bandwidth). Node routers are joined through the rack's switch link. A transfer between nodes A and B
// of one rack crosses A-nic(UP), rack-switch, B-nic(DOWN); between racks it also crosses
// rackA-uplink(UP), spine, rackB-uplink(DOWN) and the second rack's switch.
#pragma once

#include "topology.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// The per-process network stack (model key "process_stack"): every rank's traffic to and from other
// nodes, both directions, also crosses one link of its own, "<host>-stack". Shared: a rank's send and
// receive compete for it (the flagship report's "a process cannot progress send and receive at once");
// split: each direction has the full bandwidth. Traffic inside a node does not cross it.
struct ProcessStack {
  double nic_ratio = 1;  // bandwidth as a multiple of the node's NIC bandwidth
  bool shared = true;
  double latency_s = 0;
};

// Steady cross traffic (model key "background"): a stream that takes FRACTION of a link's bandwidth
// in one direction ("up", "down") or both ("both"; the only choice on links that are not split
// duplex), leaving the rest to the ring's flows.
struct BackgroundLoad {
  std::string link;
  std::string direction = "both";
  double fraction = 0;
};

// What the simulation model changes in a compact topology's platform.
struct PlatformModel {
  std::optional<ProcessStack> process_stack;
  bool nic_half_duplex = false;  // model key "nic_sharing": "half-duplex" (send and receive share a NIC)
  std::vector<BackgroundLoad> background;
  // NCCL's transports (the NCCL network model): on nodes without GPUDirect RDMA (NodeSpec::gdr) every
  // route between a GPU and a NIC also crosses the GPU's way to host memory, where NCCL stages it.
  bool nccl_staging = false;
  // NCCL's PXN (2.12 on, unless NCCL_PXN_DISABLE): on a rail fabric (topology.h RailFabric) a GPU
  // sending to a NIC of another rail hands its data over NVLink to the GPU of its node beside the
  // NIC of that rail, which sends it through that NIC, so the transfer stays on one rail's leaf
  // (NCCL's paths.cc: the PATH_PXN way GPU -> NVLink -> peer GPU -> NIC; net.cc proxies the send).
  bool nccl_pxn = false;
};

class PlatformPlan;

// SimGrid XML of the plan (platform_plan.h) with Full-routed zones: a route per node pair in each
// rack, so the file grows with the square of the nodes (1024 single-GPU nodes: ~70 MB). Simulations
// load the platform library instead (platform_library.h), whose size grows with the nodes.
std::string platform_xml(const PlatformPlan& plan);
// Throws InputError as PlatformPlan does.
std::string platform_xml(const Topology& topology, const PlatformModel& model = {});

}  // namespace ringsim
