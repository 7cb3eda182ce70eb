// The compact topology model (docs/topology-format.md): racks of nodes under an optional spine; each
// node with GPUs (one rank slot each), one or more NICs into the rack switch (GPU g uses NIC
// g * nics / gpus, as GPUs sit beside "their" NIC on DGX-class nodes), and an intra-node fabric.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct LinkSpec {
  double bandwidth_Bps = 0;  // bytes per second
  double latency_s = 0;
};

// How GPUs of one node reach each other: the kind sets the defaults of the links and NCCL's hop type.
// By default pcie and shm are one bus shared by every transfer in the node, and nvlink gives every GPU
// its own full-duplex port into a non-blocking NVSwitch fabric; "fabric" chooses either for any kind.
enum class IntraKind { pcie, shm, nvlink };

// How the NICs carry messages: TCP sockets, RDMA verbs (InfiniBand, RoCE), AWS's Elastic Fabric
// Adapter (SRD through libfabric) or HPE Slingshot's Cassini NICs (libfabric's cxi provider, which
// NCCL reaches through the OFI plugin); under the NCCL network model each NIC carries its transport's
// payload share of the line rate.
enum class NicTransport { tcp, ib, roce, efa, cxi };

struct NodeSpec {
  std::string name;  // "node0"; hosts are "<name>-gpu<i>"
  int gpus = 1;
  LinkSpec nic;      // each NIC; split duplex: each direction has the full bandwidth
  int nics = 1;
  // "nic_affinity": per GPU, the NIC beside it (same PCIe switch), or -1 for a GPU with none of its
  // own, which reaches the network through NIC g * nics / gpus across the host. Empty: GPU g is
  // beside NIC g * nics / gpus. A NIC may sit beside no GPU (on a CPU's root complex, as AWS p3dn's
  // EFA) when some GPU leaves through it.
  std::vector<int> nic_affinity;
  NicTransport nic_transport = NicTransport::tcp;  // "nic_transport"
  IntraKind intra_kind = IntraKind::pcie;
  // Ports: each GPU has its own split-duplex link of `intra` into a non-blocking fabric (NVSwitch;
  // or GPUs without peer-to-peer whose transfers are staged in host memory, each over its own PCIe
  // link). Otherwise one `intra` link shared by every transfer in the node.
  bool intra_ports = false;
  LinkSpec intra;
  // NVLink links behind each GPU's port, set where a model rescales the port to the links' payload
  // (ModelSettings::shape); 0: as many as the port's bandwidth holds at the link's line rate.
  int nvlink_links = 0;
  // "pcie_switch": GPUs g with the same g / switch_gpus sit behind one PCIe switch whose split-duplex
  // uplink (`pcie_switch`) carries every transfer between them and host memory; 0: no switch (each
  // GPU's own port reaches the host). Only with ports on pcie/shm nodes (GPUs staging through host).
  int switch_gpus = 0;
  LinkSpec pcie_switch;
  // "gdr": NCCL's network transport reads and writes GPU memory directly (GPUDirect RDMA, the outcome
  // of ncclTopoCheckGdr / NCCL_NET_GDR_LEVEL). Without it NCCL stages every network transfer in host
  // memory, over the GPU's way to the host (its port and switch uplink, or the node's bus): routes
  // take that way under the NCCL network model (platform_xml.h PlatformModel::nccl_staging). Off by
  // default on a node where no GPU has a NIC beside it: NCCL's GDR level (PXB) is then never met.
  bool gdr = true;
  // "host_pcie": on an NVLink node that stages (no gdr), each GPU's own split-duplex PCIe link to host
  // memory ("node0-gpu0-host-pcie"), which the staged network transfers cross instead of its NVLink
  // port. Bandwidth 0 elsewhere: the node has none (stages_over_host_pcie).
  LinkSpec host_pcie;
  double gpu_speed_flops = 0;
  // The gpu_model's FP32 peak where the topology states no "gpu_speed" (else 0): NCCL reduces in GPU
  // kernels, so the model made for NCCL charges its reductions at it (with_gpu_model_speeds); MPI's
  // algorithms reduce in host memory on the CPU and keep gpu_speed_flops.
  double model_gpu_speed_flops = 0;
  // "gpu_model": the GPUs' name as nvidia-smi prints it ("H100", "A100-SXM4-40GB"), or empty. Its
  // generation (NVIDIA compute capability, gpu_compute_capability) is NCCL's model's unless the
  // scenario names one: NVLink's payload per link, LL128, NVLS.
  std::string gpu_model;
  int gpu_compute_capability = 0;  // of gpu_model; 0: not given
};

struct RackSpec {
  std::string name;
  // With a bandwidth given, the switch is a backplane of that capacity shared by all traffic
  // between the rack's nodes. Without, it is non-blocking: a backplane with room for every port.
  LinkSpec switch_link;
  bool switch_nonblocking = false;
  // The rack switch's split-duplex link to the spine (multi-rack topologies only).
  LinkSpec uplink;
  std::vector<NodeSpec> nodes;
};

// "rails": a rail-optimized fabric over the one rack's nodes, instead of its switch. NIC i of every
// node hangs off rail leaf switch i ("rail0-leaf"); the leaves join through a spine ("rail-spine"),
// each over its own split-duplex uplink ("rail0-leaf-uplink"). A transfer between NICs of one rail
// crosses that rail's leaf alone; one between NICs of two rails also crosses both leaves' uplinks and
// the spine (what NCCL's PXN avoids: PlatformModel::nccl_pxn).
struct RailFabric {
  int rails = 0;                // leaves = NICs of every node
  LinkSpec leaf;                // each leaf's backplane, shared by the traffic through it
  bool leaf_nonblocking = true;  // room for every port at full rate both ways (size_nonblocking_switches)
  LinkSpec uplink;              // each leaf's uplink to the spine: its NICs' total / oversubscription
  LinkSpec spine;
  bool spine_nonblocking = true;
};

struct Topology {
  std::string name;
  std::string description;
  std::vector<RackSpec> racks;
  // Set when there are several racks: the spine switch joining their uplinks (a shared backplane of
  // the given bandwidth, or with room for every uplink when non-blocking).
  std::optional<LinkSpec> spine;
  bool spine_nonblocking = true;
  std::optional<RailFabric> rails;  // with one rack only; its switch is then unused
  // Every value a node group took from a default or from its "gpu_model" rather than from the file,
  // as the table's header and the results JSON name it: "NVLink 450 GB/s per GPU (18 links): H100 SXM".
  std::vector<std::string> assumed;
};

// Reads and validates a compact topology file; throws InputError naming the file and JSON path.
Topology load_topology(const std::filesystem::path& file);
// The same from the file's JSON already read (ROOT, perhaps with keys added to it), errors naming FILE.
Topology read_topology_json(const nlohmann::json& root, const std::filesystem::path& file);

// The same topology with every link's bandwidth multiplied by FACTOR (model key link_bandwidth_scale).
Topology scaled_bandwidths(Topology topology, double factor);
// The same topology with every NIC's bandwidth multiplied by FACTOR (model key nic_efficiency): the
// share of the nominal rate a transport gets; switches, uplinks and links inside nodes keep theirs.
Topology scaled_nic_bandwidths(Topology topology, double factor);

// The same topology with every NIC at BANDWIDTH (model key nic_bandwidth); non-blocking switches grow
// with their ports, uplinks stay as they are.
Topology with_nic_bandwidth(Topology topology, double bandwidth_Bps);
// The same topology with every NIC's latency LATENCY_S (model key nic_latency).
Topology with_nic_latency(Topology topology, double latency_s);
// The same topology with every link's latency multiplied by FACTOR (model key link_latency_scale).
Topology scaled_latencies(Topology topology, double factor);

// The same topology with every NIC at the share of its line rate its transport's payload gets from
// the framing of a full packet: TCP over Ethernet MTU 1500 with timestamps 1448 of 1538 bytes on the
// wire; InfiniBand 4096 of 4122 (LRH, BTH, ICRC, VCRC); RoCE v2 4096 of 4178 (Ethernet, IP, UDP, BTH).
double transport_payload_share(NicTransport transport);
Topology with_transport_payload_share(Topology topology);
// The transport's name in a topology file ("nic_transport"): "tcp", "ib", "roce", "efa", "cxi".
std::string_view nic_transport_name(NicTransport transport);
inline constexpr NicTransport kNicTransports[] = {NicTransport::tcp, NicTransport::ib, NicTransport::roce, NicTransport::efa,
                                                  NicTransport::cxi};

// NVLink's line rate per link and direction for COMPUTE_CAPABILITY's generation, GB/s: P100 20, V100 to
// H100 25, B200 50.
double nvlink_line_GBps(int compute_capability);
// NVLink links of one GPU behind a port of PORT_BANDWIDTH_BPS bytes per second per direction.
int nvlink_links(double port_bandwidth_Bps, int compute_capability);
// The share of the line rate a link carries as payload, by NCCL's current per-link figures (topo.h
// 2.28: SM60 18, SM70 and SM80 20, SM90 20.6, SM100 40.1 GB/s; the corpus's superbench run measures
// 235 GB/s of bus bandwidth on A100's 12 links, 0.78 of their 300).
double nvlink_payload_share(int compute_capability);
// The same topology with every NVLink port at that share (its links counted first, in nvlink_links).
Topology with_nvlink_payload_share(Topology topology, int compute_capability);

// The same topology with every node that has a model_gpu_speed_flops at that speed.
Topology with_gpu_model_speeds(Topology topology);

// The NIC GPU's traffic leaves the node through, and the NIC beside it (-1: none of its own).
int nic_of_gpu(const NodeSpec& node, int gpu);
int nic_beside_gpu(const NodeSpec& node, int gpu);

std::string host_name(const NodeSpec& node, int gpu);
std::string nic_link_name(const NodeSpec& node, int nic);          // "node0-nic", or "node0-nic3" with several
std::string intra_link_name(const NodeSpec& node);                 // the bus of pcie/shm nodes
std::string intra_port_name(const NodeSpec& node, int gpu);        // "node0-gpu3-nvlink", "-pcie", "-shm"
std::string pcie_switch_name(const NodeSpec& node, int pcie_switch);  // "node0-pcie-switch1"
// Whether the node's GPUs reach host memory over links of their own beside an NVLink fabric
// (NodeSpec::host_pcie), and the link of GPU: "node0-gpu3-host-pcie".
bool stages_over_host_pcie(const NodeSpec& node);
std::string host_pcie_name(const NodeSpec& node, int gpu);
int pcie_switch_of_gpu(const NodeSpec& node, int gpu);             // -1 without switches
int pcie_switches(const NodeSpec& node);                           // 0 without
std::string switch_link_name(const RackSpec& rack);
std::string uplink_name(const RackSpec& rack);                     // "rack0-uplink"
inline constexpr const char* kSpineLinkName = "spine";
std::string rail_leaf_name(int rail);    // "rail0-leaf"
std::string rail_uplink_name(int rail);  // "rail0-leaf-uplink"
inline constexpr const char* kRailSpineLinkName = "rail-spine";

}  // namespace ringsim
