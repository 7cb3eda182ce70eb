// The model key "nccl" (docs/scenario-format.md, "The `nccl` key"): how the nccl_ring algorithm runs NCCL's ring and
// which version of NCCL's own time model (sim/analysis/algorithm_costs.h) predicts it. Parsed and
// validated once here; defaults that depend on the topology (the channel count) are derived by the
// analysis from the platform, the way NCCL's topology search derives them.
#pragma once

#include "nccl_releases.h"
#include "nccl_software_costs.h"
#include "../../common/json_input.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// NCCL's three protocols; auto lets NCCL's time model choose per size, as NCCL does.
enum class NcclProtocol { auto_choice, ll, ll128, simple };

std::string_view protocol_name(NcclProtocol protocol);  // "auto", "LL", "LL128", "Simple"

inline constexpr std::uint64_t kNcclDefaultBuffsize = 4ULL << 20;  // NCCL_BUFFSIZE's default
inline constexpr int kNcclMaxChannels = 32;                       // MAXCHANNELS of the versions modelled

struct NcclSettings {
  std::string version_text = "2.18";
  NcclVersion version;
  const NcclRelease* release = &nccl_release_of(version);  // what VERSION's sources hold (set_version)
  bool version_given = false;   // named by a scenario or model file (else a trace's header may name it)
  std::optional<int> channels;  // nullopt: twice the channels NCCL's search finds (2.4: once)
  NcclProtocol protocol = NcclProtocol::auto_choice;
  bool protocol_given = false;  // named by a scenario or model file (else a trace's NCCL log may force one)
  std::uint64_t buffsize = kNcclDefaultBuffsize;
  // Of the GPUs (70 Volta, 80 Ampere, 90 Hopper): NCCL's ring latency factor depends on it.
  int compute_capability = 80;
  bool compute_capability_given = false;  // named by a scenario or model file (else a trace's GPUs may say)
  // Charge Simple's per-slice handshake on nodes without NVLink under the NCCL network model. The rank
  // then wakes at every slice: such cases run on the maestro engine (ModelSettings::engine_for), where
  // that costs 1.2-2.3x the CPU time; SMPI's sleeps made one fixture run take over 10 minutes.
  bool handshake = true;
  // The latency the network plugin reports to NCCL (ncclNetProperties_t.latency), which NCCL's model adds
  // to each network hop from 2.12 (algorithm_costs.h nccl_network_hop_us): 0 for NCCL's own IB and
  // socket transports; aws-ofi-nccl reports 75 us on p4d, p4de and p5 (src/platform-aws.c) and logs it
  // ("NET/OFI Internode latency set at 75.0 us"). NCCL's model only: its authors chose it so that NCCL's
  // model picks the algorithm their measurements favour; the simulated wire does not pay it (on the p5
  // runs it fits the mid sizes, not the small ones: docs/corpus-validation.md).
  double net_latency_s = 0;
  bool net_latency_given = false;  // named by a scenario or model file (else a trace's NCCL log may say)
  // NCCL's software costs per call and step (nccl_software_costs.h), spent under the model made for NCCL.
  NcclSoftwareCosts software = nccl_learned_software_costs();
  // "pxn": false is NCCL_PXN_DISABLE=1. PXN exists from 2.12 (NcclRelease::pxn); NCCL uses it where
  // a GPU reaches another rail's NIC through an NVLink peer beside it (PlatformModel::nccl_pxn).
  bool pxn_disabled = false;
  // "p2p_flows": "chunks": NCCL's point-to-point schedule sends every chunk as its own message on every
  // engine (NcclP2pRun::flow_per_chunk); "parts" (the default): one paced message per part where the
  // engine paces sends.
  bool p2p_flow_per_chunk = false;

  bool uses_pxn() const { return release->pxn && !pxn_disabled; }

  // VERSION and its release's row, read once here.
  void set_version(const NcclVersion& named) {
    version = named;
    release = &nccl_release_of(named);
  }
};

// One node as NCCL's topology search sees it (node order of the topology, racks in turn).
struct NcclNodeFacts {
  std::vector<std::string> nic_links;   // names of the NIC links ("node0-nic3")
  std::vector<std::string> port_links;  // names of the GPU ports, when there are ports
  double nic_bandwidth_Bps = 0;      // each NIC
  std::vector<int> nic_of_gpu;       // the NIC each GPU's traffic leaves through
  std::vector<int> nic_beside_gpu;   // the NIC beside each GPU, -1 for none of its own
  double port_bandwidth_Bps = 0;     // each GPU's own port into the node's fabric (NVSwitch); 0: a shared bus
  std::vector<std::string> switch_links;  // uplinks of the PCIe switches GPUs share on their way to host memory
  std::vector<int> switch_of_gpu;    // per GPU, its switch, -1 for none (or no ports)
  double switch_bandwidth_Bps = 0;   // each switch's uplink
  // Each GPU's own PCIe link to host memory beside NVLink (NodeSpec::host_pcie), which staged network
  // transfers cross instead of its port; none elsewhere.
  std::vector<std::string> host_pcie_links;
  double host_pcie_bandwidth_Bps = 0;
  bool gdr = true;                   // GPUDirect RDMA: without, network transfers are staged in host memory
};

// A rail fabric (topology.h RailFabric): the links between NICs of different rails, each leaf's
// uplink (split duplex) and the spine, with their bandwidths (0: a non-blocking spine, never the limit).
struct NcclRailFabric {
  std::vector<std::string> uplink_links;  // per rail
  double uplink_bandwidth_Bps = 0;
  std::string spine_link;
  double spine_bandwidth_Bps = 0;
};

// The facts of a platform NCCL's topology search uses for the ring (per node: slowest of the nodes).
struct NcclTopologyFacts {
  double nic_bandwidth_Bps = 0;    // one NIC
  int nics = 1;                    // per node
  double intra_bandwidth_Bps = 0;  // GPU to GPU inside a node
  bool nvlink = false;             // intra-node links are NVLink (else PCIe / shared memory)
  int nvlink_links = 0;            // NVLink links per GPU (0: from intra_bandwidth_Bps)
  NicTransport nic_transport = NicTransport::tcp;  // the first node's: how NCCL reaches the network
  std::vector<NcclNodeFacts> nodes;  // every node: which NICs a placement's ranks sit beside
  std::optional<NcclRailFabric> rail_fabric;
};

// gpu_compute_capability: sim/platform/gpu_generation.h.

// Whether PROTOCOL exists in RELEASE: LL128 came with 2.5 (auto, LL and Simple are in every release).
bool nccl_has_protocol(const NcclRelease& release, NcclProtocol protocol);

// Reads a "nccl" object over BASE (keys present override). Throws InputError naming FILE and PATH.
NcclSettings read_nccl_settings(const nlohmann::json& value, const std::string& file, const std::string& path,
                                NcclSettings base);

// The keys as given (channels only when set) and the software costs spent, for the results' "model".
nlohmann::json nccl_settings_json(const NcclSettings& settings);
// nccl.software as read_nccl_settings reads it: {"call": "12us", "intra_step": {"LL": ...}, "net_step": {...}}.
nlohmann::json nccl_software_costs_json(const NcclSoftwareCosts& costs);

}  // namespace ringsim
