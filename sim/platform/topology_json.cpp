// Compact topology JSON -> Topology. Defaults live here and in the table of docs/topology-format.md.
#include "topology.h"

#include "gpu_generation.h"
#include "gpu_model_rates.h"

#include "../common/input_error.h"
#include "../common/json_input.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <limits>
#include <set>
#include <tuple>

namespace ringsim {
namespace {

constexpr double kDefaultSwitchLatency = 1e-6;      // 1us; bandwidth defaults to non-blocking (below)
constexpr LinkSpec kDefaultNic{10e9 / 8, 1e-6};      // 10Gbps, 1us
// An EFA NIC's latency: a hop between nodes crosses two, 20 us, the network latency per inter-node
// step of AWS's own NCCL tuner model for P5 and P5e (aws-ofi-nccl src/tuner/nccl_ofi_model.cpp,
// net_lat; 18 us on P5en), where verbs NICs take about 1 us.
constexpr double kEfaNicLatency_s = 10e-6;
constexpr LinkSpec kDefaultPcie{12e9, 0.5e-6};       // 12GBps, 0.5us (PCIe 3.0 x16-class)
constexpr LinkSpec kDefaultShm{8e9, 0.3e-6};         // 8GBps, 0.3us (a CPU copy through shared memory)
constexpr LinkSpec kDefaultNvlink{300e9, 0.7e-6};    // 300GBps per direction per GPU (A100 NVLink 3 via NVSwitch)
constexpr double kDefaultUplinkLatency = 1e-6;
constexpr double kDefaultSpineLatency = 1e-6;
constexpr double kDefaultGpuSpeed = 1e12;            // 1Tf: one flop per reduced element
constexpr int kMaxCount = 100000;

LinkSpec read_link(JsonObjectReader& parent, std::string_view key, LinkSpec defaults) {
  const nlohmann::json* value = parent.optional_value(key);
  if (value == nullptr) return defaults;
  JsonObjectReader link(*value, parent.file(), parent.path_of(key));
  LinkSpec spec{link.optional_bandwidth("bandwidth").value_or(defaults.bandwidth_Bps),
                link.optional_latency("latency").value_or(defaults.latency_s)};
  link.finish();
  return spec;
}

struct IntraSpec {
  IntraKind kind = IntraKind::pcie;
  bool ports = false;
  LinkSpec link;
  bool bandwidth_given = false, latency_given = false;
};

// "intra": {"kind": "pcie" | "shm" | "nvlink", "fabric": "bus" | "ports", "bandwidth", "latency"};
// the kind sets the defaults.
IntraSpec read_intra(JsonObjectReader& node) {
  const nlohmann::json* value = node.optional_value("intra");
  if (value == nullptr) return {IntraKind::pcie, false, kDefaultPcie, false, false};
  JsonObjectReader intra(*value, node.file(), node.path_of("intra"));
  IntraKind kind = IntraKind::pcie;
  if (auto name = intra.optional_string("kind")) {
    if (*name == "pcie") kind = IntraKind::pcie;
    else if (*name == "shm") kind = IntraKind::shm;
    else if (*name == "nvlink") kind = IntraKind::nvlink;
    else intra.fail("kind", fmt::format("unknown intra-node kind \"{}\"; expected \"pcie\", \"shm\" or \"nvlink\"", *name));
  }
  const LinkSpec defaults = kind == IntraKind::nvlink ? kDefaultNvlink : kind == IntraKind::shm ? kDefaultShm : kDefaultPcie;
  bool ports = kind == IntraKind::nvlink;
  if (auto fabric = intra.optional_string("fabric")) {
    if (*fabric != "bus" && *fabric != "ports")
      intra.fail("fabric", fmt::format("expected \"bus\" (one link shared by every transfer in the node) or \"ports\" "
                                       "(each GPU its own split-duplex link), found \"{}\"", *fabric));
    ports = *fabric == "ports";
  }
  const std::optional<double> bandwidth = intra.optional_bandwidth("bandwidth");
  const std::optional<double> latency = intra.optional_latency("latency");
  intra.finish();
  return {kind, ports, {bandwidth.value_or(defaults.bandwidth_Bps), latency.value_or(defaults.latency_s)},
          bandwidth.has_value(), latency.has_value()};
}

void check_name(JsonObjectReader& reader, std::string_view key, const std::string& name) {
  if (name.empty() || name.find_first_of(" \t\n\"'<>&/") != std::string::npos)
    reader.fail(key, fmt::format("\"{}\" is not a usable name (non-empty, no spaces, quotes, <, >, & or /)", name));
}

// A crossbar: no flow is slowed inside the switch, its ports are the limit. Modelled as a shared
// backplane with room for every port at full rate both ways, so it never binds. (A FATPIPE would
// too, but SimGrid divides a FATPIPE's rate among flows by their route latency: measured 1.8x slow
// steps for the ring edges that leave the rack on two-racks-4to1.)
void size_nonblocking_switches(Topology& topology) {
  double uplinks = 0;
  for (RackSpec& rack : topology.racks) {
    double ports = topology.spine ? rack.uplink.bandwidth_Bps : 0;
    for (const NodeSpec& node : rack.nodes) ports += node.nic.bandwidth_Bps * node.nics;
    if (rack.switch_nonblocking) rack.switch_link.bandwidth_Bps = 2 * ports;
    uplinks += rack.uplink.bandwidth_Bps;
  }
  if (topology.spine && topology.spine_nonblocking) topology.spine->bandwidth_Bps = 2 * uplinks;
  if (RailFabric* rails = topology.rails ? &*topology.rails : nullptr) {
    double rail_ports = rails->uplink.bandwidth_Bps;  // one NIC per node and the uplink on each leaf
    for (const NodeSpec& node : topology.racks.front().nodes) rail_ports += node.nic.bandwidth_Bps;
    if (rails->leaf_nonblocking) rails->leaf.bandwidth_Bps = 2 * rail_ports;
    if (rails->spine_nonblocking) rails->spine.bandwidth_Bps = 2 * rails->rails * rails->uplink.bandwidth_Bps;
  }
}

}  // namespace

Topology with_nic_bandwidth(Topology topology, double bandwidth_Bps) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes) node.nic.bandwidth_Bps = bandwidth_Bps;
  size_nonblocking_switches(topology);
  return topology;
}

Topology with_nic_latency(Topology topology, double latency_s) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes) node.nic.latency_s = latency_s;
  return topology;
}

namespace {

// Multiplies FIELD (bandwidth or latency) of every link of TOPOLOGY by FACTOR.
Topology scaled_links(Topology topology, double LinkSpec::*field, double factor) {
  for (RackSpec& rack : topology.racks) {
    rack.switch_link.*field *= factor;
    rack.uplink.*field *= factor;
    for (NodeSpec& node : rack.nodes) {
      node.nic.*field *= factor;
      node.intra.*field *= factor;
      node.pcie_switch.*field *= factor;
      node.host_pcie.*field *= factor;
    }
  }
  if (topology.spine) (*topology.spine).*field *= factor;
  if (topology.rails)
    for (LinkSpec* link : {&topology.rails->leaf, &topology.rails->uplink, &topology.rails->spine}) (*link).*field *= factor;
  return topology;
}

}  // namespace

Topology scaled_latencies(Topology topology, double factor) {
  return scaled_links(std::move(topology), &LinkSpec::latency_s, factor);
}

Topology scaled_nic_bandwidths(Topology topology, double factor) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes) node.nic.bandwidth_Bps *= factor;
  return topology;
}

Topology scaled_bandwidths(Topology topology, double factor) {
  return scaled_links(std::move(topology), &LinkSpec::bandwidth_Bps, factor);
}

double transport_payload_share(NicTransport transport) {
  switch (transport) {
    case NicTransport::tcp: return 1448.0 / 1538.0;
    case NicTransport::ib: return 4096.0 / 4122.0;
    case NicTransport::roce:
    case NicTransport::efa: return 4096.0 / 4178.0;  // SRD's framing is not published: RoCE v2's
    // Slingshot's HPC Ethernet framing is not published byte by byte: RoCE v2's Ethernet, IP and UDP
    // class headers around a 4 KiB payload.
    case NicTransport::cxi: return 4096.0 / 4178.0;
  }
  return 1;
}

std::string_view nic_transport_name(NicTransport transport) {
  switch (transport) {
    case NicTransport::tcp: return "tcp";
    case NicTransport::ib: return "ib";
    case NicTransport::roce: return "roce";
    case NicTransport::efa: return "efa";
    case NicTransport::cxi: return "cxi";
  }
  return "tcp";
}

double nvlink_line_GBps(int compute_capability) {
  return compute_capability < 70 ? 20 : compute_capability >= 100 ? 50 : 25;
}

int nvlink_links(double port_bandwidth_Bps, int compute_capability) {
  return std::max(1, static_cast<int>(std::lround(port_bandwidth_Bps / 1e9 / nvlink_line_GBps(compute_capability))));
}

double nvlink_payload_share(int compute_capability) {
  const double per_link = compute_capability < 70 ? 18 : compute_capability >= 100 ? 40.1 : compute_capability >= 90 ? 20.6 : 20;
  return per_link / nvlink_line_GBps(compute_capability);
}

Topology with_nvlink_payload_share(Topology topology, int compute_capability) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes)
      if (node.intra_kind == IntraKind::nvlink && node.nvlink_links == 0) {
        node.nvlink_links = nvlink_links(node.intra.bandwidth_Bps, compute_capability);
        node.intra.bandwidth_Bps *= nvlink_payload_share(compute_capability);
      }
  return topology;
}

Topology with_gpu_model_speeds(Topology topology) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes)
      if (node.model_gpu_speed_flops > 0) node.gpu_speed_flops = node.model_gpu_speed_flops;
  return topology;
}

Topology with_transport_payload_share(Topology topology) {
  for (RackSpec& rack : topology.racks)
    for (NodeSpec& node : rack.nodes) node.nic.bandwidth_Bps *= transport_payload_share(node.nic_transport);
  return topology;
}

int nic_beside_gpu(const NodeSpec& node, int gpu) {
  return node.nic_affinity.empty() ? gpu * node.nics / node.gpus : node.nic_affinity[static_cast<std::size_t>(gpu)];
}
int nic_of_gpu(const NodeSpec& node, int gpu) {
  const int beside = nic_beside_gpu(node, gpu);
  return beside >= 0 ? beside : gpu * node.nics / node.gpus;
}

std::string host_name(const NodeSpec& node, int gpu) { return fmt::format("{}-gpu{}", node.name, gpu); }
std::string nic_link_name(const NodeSpec& node, int nic) {
  return node.nics == 1 ? node.name + "-nic" : fmt::format("{}-nic{}", node.name, nic);
}
std::string intra_port_name(const NodeSpec& node, int gpu) {
  const char* kind = node.intra_kind == IntraKind::nvlink ? "nvlink" : node.intra_kind == IntraKind::shm ? "shm" : "pcie";
  return fmt::format("{}-{}", host_name(node, gpu), kind);
}
bool stages_over_host_pcie(const NodeSpec& node) { return node.intra_kind == IntraKind::nvlink && !node.gdr; }
std::string host_pcie_name(const NodeSpec& node, int gpu) { return host_name(node, gpu) + "-host-pcie"; }
std::string pcie_switch_name(const NodeSpec& node, int pcie_switch) { return fmt::format("{}-pcie-switch{}", node.name, pcie_switch); }
int pcie_switch_of_gpu(const NodeSpec& node, int gpu) { return node.switch_gpus > 0 ? gpu / node.switch_gpus : -1; }
int pcie_switches(const NodeSpec& node) { return node.switch_gpus > 0 ? (node.gpus + node.switch_gpus - 1) / node.switch_gpus : 0; }
std::string uplink_name(const RackSpec& rack) { return rack.name + "-uplink"; }
std::string intra_link_name(const NodeSpec& node) { return node.name + "-intra"; }
std::string switch_link_name(const RackSpec& rack) { return rack.name + "-switch"; }
std::string rail_leaf_name(int rail) { return fmt::format("rail{}-leaf", rail); }
std::string rail_uplink_name(int rail) { return fmt::format("rail{}-leaf-uplink", rail); }

namespace {

// "nic_affinity": one entry per GPU, the index of the NIC beside it or null (none of its own, leaving
// through NIC g * nics / gpus across the host). A NIC may sit beside no GPU (on a CPU's root complex:
// AWS p3dn, Azure ND v2) as long as some GPU leaves through it; a NIC no GPU uses would be idle.
std::vector<int> read_nic_affinity(JsonObjectReader& group, const nlohmann::json& value, const NodeSpec& node) {
  const std::string hint = fmt::format("expected a list of {} entries, one per GPU: the index (0..{}) of the NIC beside it, "
                                       "or null for a GPU with no NIC of its own", node.gpus, node.nics - 1);
  if (!value.is_array() || value.size() != static_cast<std::size_t>(node.gpus)) group.fail("nic_affinity", hint);
  std::vector<int> affinity;
  std::vector<bool> used(static_cast<std::size_t>(node.nics), false);
  for (const nlohmann::json& entry : value) {
    const int gpu = static_cast<int>(affinity.size());
    if (entry.is_null()) {
      affinity.push_back(-1);
      used[static_cast<std::size_t>(gpu * node.nics / node.gpus)] = true;
      continue;
    }
    const auto nic = json_integer<int>(entry, 0, node.nics - 1);
    if (!nic) group.fail("nic_affinity", hint);
    affinity.push_back(*nic);
    used[static_cast<std::size_t>(*nic)] = true;
  }
  for (int k = 0; k < node.nics; ++k)
    if (!used[static_cast<std::size_t>(k)])
      group.fail("nic_affinity", fmt::format("NIC {} has no GPU beside it and no GPU leaves through it (a GPU with null leaves "
                                             "through NIC g*nics/gpus): name it for at least one GPU", k));
  return affinity;
}

// "pcie_switch": {"gpus": 2, "bandwidth", "latency"}: every GPUS consecutive GPUs share a PCIe switch
// whose uplink to the host has the intra-node link's bandwidth unless given, and no latency of its own
// unless given (a switch's cut-through latency, ~0.1-0.15 us, is within the ports').
void read_pcie_switch(JsonObjectReader& group, NodeSpec& node) {
  const nlohmann::json* value = group.optional_value("pcie_switch");
  if (value == nullptr) return;
  if (node.intra_kind == IntraKind::nvlink || !node.intra_ports)
    group.fail("pcie_switch", "a PCIe switch shared by GPUs needs \"intra\": {\"kind\": \"pcie\" or \"shm\", \"fabric\": \"ports\"} "
                              "(each GPU's own link to it)");
  JsonObjectReader fields(*value, group.file(), group.path_of("pcie_switch"));
  node.switch_gpus = static_cast<int>(fields.required_int("gpus", 1, node.gpus));
  node.pcie_switch = {fields.optional_bandwidth("bandwidth").value_or(node.intra.bandwidth_Bps),
                      fields.optional_latency("latency").value_or(0)};
  fields.finish();
}

void assume(std::vector<std::string>& assumed, std::string value) {
  if (std::find(assumed.begin(), assumed.end(), value) == assumed.end()) assumed.push_back(std::move(value));
}

// "gdr" and, on an NVLink node that stages, "host_pcie". NCCL enables GPUDirect RDMA when GPU and NIC
// support it and sit close (ncclTopoCheckGdr: at most PCIe switches apart, NCCL_NET_GDR_LEVEL's
// default PXB). A topology that does not say otherwise has it where some GPU has a NIC beside it (the
// ring enters and leaves nodes only there): staging is a property of the hardware (consumer GPUs, no
// peer-memory driver) that the topology must state, and staged routes cost the simulation far more
// (every GPU's flows share its way to the host). Where every NIC is across the host, NCCL stages.
void read_gdr(JsonObjectReader& group, NodeSpec& node, std::vector<std::string>& assumed) {
  const bool nic_beside_some_gpu = node.nic_affinity.empty() ||
                                   std::any_of(node.nic_affinity.begin(), node.nic_affinity.end(), [](int nic) { return nic >= 0; });
  node.gdr = group.optional_bool("gdr").value_or(nic_beside_some_gpu);
  const bool given = group.optional_value("host_pcie") != nullptr;
  if (!stages_over_host_pcie(node)) {
    if (given)
      group.fail("host_pcie", "only staged network transfers on an nvlink node cross a GPU's own PCIe link to host memory: "
                              "give it with \"gdr\": false on an nvlink node, or leave it out");
    return;
  }
  node.host_pcie = read_link(group, "host_pcie", kDefaultPcie);
  if (!given) assume(assumed, fmt::format("GPU's PCIe link to host memory {:g} GB/s, {:g} us: default", kDefaultPcie.bandwidth_Bps / 1e9,
                                          kDefaultPcie.latency_s * 1e6));
}

std::string intra_kind_label(IntraKind kind) {
  return kind == IntraKind::nvlink ? "NVLink" : kind == IntraKind::shm ? "shared memory" : "PCIe";
}

// "gpu_model" and "gpu_speed": the generation NCCL's model takes, and what the model implies where
// the topology states nothing: the NVLink line rate per GPU and the speed of reductions. A stated
// NVLink bandwidth other than the model's is kept, with a warning: one of the two is likely a typo.
// True when the NVLink rate came from the model.
bool read_gpu_model(JsonObjectReader& group, NodeSpec& node, const IntraSpec& intra, std::vector<std::string>& assumed) {
  std::optional<GpuModelRates> rates;
  if (auto model = group.optional_string("gpu_model")) {
    const std::optional<int> capability = gpu_compute_capability(*model);
    if (!capability)
      group.fail("gpu_model", fmt::format("\"{}\" is no GPU generation ringsim knows; name it as nvidia-smi does, such as "
                                          "\"V100\", \"A100\", \"H100\", \"B200\", \"RTX 2080 Ti\", \"L40S\"", *model));
    node.gpu_model = *model;
    node.gpu_compute_capability = *capability;
    rates = gpu_model_rates(*model);
  }
  const bool model_nvlink = rates && rates->nvlink_links > 0;
  if (intra.kind == IntraKind::nvlink && !intra.bandwidth_given && model_nvlink) {
    node.intra.bandwidth_Bps = rates->nvlink_Bps();
    assume(assumed, fmt::format("NVLink {:g} GB/s per GPU ({} links): {}", rates->nvlink_Bps() / 1e9, rates->nvlink_links, rates->label));
  } else if (intra.kind == IntraKind::nvlink && model_nvlink && std::abs(intra.link.bandwidth_Bps / rates->nvlink_Bps() - 1) > 0.01) {
    fmt::print(stderr, "ringsim: warning: {}: {}/bandwidth: {:g} GB/s per GPU, but an {} has {:g} GB/s ({} NVLink links); "
                       "the stated value is used\n", group.file(), group.path_of("intra"), intra.link.bandwidth_Bps / 1e9,
               rates->label, rates->nvlink_Bps() / 1e9, rates->nvlink_links);
  }
  const std::optional<double> speed = group.optional_speed("gpu_speed");
  node.gpu_speed_flops = speed.value_or(kDefaultGpuSpeed);
  if (!speed && rates && rates->fp32_flops > 0) {
    node.model_gpu_speed_flops = rates->fp32_flops;
    assume(assumed, fmt::format("GPU speed {:g} Tflop/s for NCCL's kernels: {}", rates->fp32_flops / 1e12, rates->label));
    assume(assumed, fmt::format("{:g} Tflop/s for MPI's reductions in host memory: default", kDefaultGpuSpeed / 1e12));
  } else if (!speed) {
    assume(assumed, fmt::format("GPU speed {:g} Tflop/s: default", kDefaultGpuSpeed / 1e12));
  }
  return intra.kind == IntraKind::nvlink && !intra.bandwidth_given && model_nvlink;
}

// Every other link value of a node group that came from a default, as the table's header names it.
void note_link_defaults(JsonObjectReader& group, const NodeSpec& node, const IntraSpec& intra, bool nvlink_from_model,
                        std::vector<std::string>& assumed) {
  const nlohmann::json* nic = group.optional_value("nic");
  const auto given = [&](const char* key) { return nic != nullptr && nic->is_object() && nic->contains(key); };
  if (!given("bandwidth")) assume(assumed, fmt::format("NIC {:g} Gbit/s: default", node.nic.bandwidth_Bps * 8 / 1e9));
  if (!given("latency")) assume(assumed, fmt::format("NIC latency {:g} us: default", node.nic.latency_s * 1e6));
  if (!group.optional_value("nic_transport")) assume(assumed, "NIC transport tcp: default");
  const std::string kind = intra_kind_label(intra.kind);
  if (!intra.bandwidth_given && !nvlink_from_model)
    assume(assumed, fmt::format("{} {:g} GB/s {}: default", kind, node.intra.bandwidth_Bps / 1e9, node.intra_ports ? "per GPU" : "per node"));
  if (!intra.latency_given) assume(assumed, fmt::format("{} latency {:g} us: default", kind, node.intra.latency_s * 1e6));
}

// One entry of a rack's "nodes": a node group, expanded into RACK's nodes ("count": 3 gives
// NAME0..NAME2). NAMES holds every node and rack name so far, which must stay unique.
void read_node_group(JsonObjectReader& group, std::set<std::string>& names, RackSpec& rack, std::vector<std::string>& assumed) {
  const std::string base = group.required_string("name");
  check_name(group, "name", base);
  const auto count = group.optional_int("count", 1, kMaxCount);
  NodeSpec node;
  node.gpus = static_cast<int>(group.optional_int("gpus", 1, 4096).value_or(1));
  if (auto transport = group.optional_string("nic_transport")) {
    const auto* named = std::find_if(std::begin(kNicTransports), std::end(kNicTransports),
                                     [&](NicTransport t) { return nic_transport_name(t) == *transport; });
    if (named == std::end(kNicTransports))
      group.fail("nic_transport", fmt::format("expected \"tcp\", \"ib\", \"roce\", \"efa\" or \"cxi\", found \"{}\"", *transport));
    node.nic_transport = *named;
  }
  LinkSpec nic_defaults = kDefaultNic;
  if (node.nic_transport == NicTransport::efa) nic_defaults.latency_s = kEfaNicLatency_s;
  node.nic = read_link(group, "nic", nic_defaults);
  node.nics = static_cast<int>(group.optional_int("nics", 1, 64).value_or(1));
  if (node.nics > node.gpus)
    group.fail("nics", fmt::format("{} NICs for {} GPUs: every NIC needs a GPU beside it (GPU g uses NIC g*nics/gpus)",
                                   node.nics, node.gpus));
  if (const nlohmann::json* affinity = group.optional_value("nic_affinity"))
    node.nic_affinity = read_nic_affinity(group, *affinity, node);
  const IntraSpec intra = read_intra(group);
  node.intra_kind = intra.kind, node.intra_ports = intra.ports, node.intra = intra.link;
  read_pcie_switch(group, node);
  read_gdr(group, node, assumed);
  const bool nvlink_from_model = read_gpu_model(group, node, intra, assumed);
  note_link_defaults(group, node, intra, nvlink_from_model, assumed);
  group.finish();
  // "count": 3 expands "node" to node0..node2; without count the name is used as written.
  for (std::int64_t i = 0; i < count.value_or(1); ++i) {
    node.name = count ? fmt::format("{}{}", base, i) : base;
    if (!names.insert(node.name).second)
      group.fail("name", fmt::format("node name \"{}\" is used twice", node.name));
    rack.nodes.push_back(node);
  }
}

// Uplink to the spine: given, or derived from an oversubscription ratio over the rack's NICs.
void read_uplink(JsonObjectReader& rack_reader, std::size_t racks, RackSpec& rack) {
  const nlohmann::json* uplink = rack_reader.optional_value("uplink");
  const nlohmann::json* ratio = rack_reader.optional_value("oversubscription");
  if ((uplink != nullptr || ratio != nullptr) && racks == 1)
    rack_reader.fail(uplink != nullptr ? "uplink" : "oversubscription", "a rack's uplink leads to a spine, which needs several racks");
  if (uplink != nullptr && ratio != nullptr)
    rack_reader.fail("oversubscription", "give either \"uplink\" or \"oversubscription\", not both");
  double nic_total = 0;
  for (const NodeSpec& node : rack.nodes) nic_total += node.nic.bandwidth_Bps * node.nics;
  rack.uplink = read_link(rack_reader, "uplink", LinkSpec{nic_total, kDefaultUplinkLatency});
  if (const auto oversubscription = rack_reader.optional_number("oversubscription", 1, std::numeric_limits<double>::max(),
                                                               "a ratio >= 1 such as 4 (4:1)"))
    rack.uplink.bandwidth_Bps = nic_total / *oversubscription;
}

// Rack R of RACKS: its name, switch, node groups and uplink.
RackSpec read_rack(JsonObjectReader& rack_reader, std::size_t r, std::size_t racks, std::set<std::string>& names,
                   std::vector<std::string>& assumed) {
  RackSpec rack;
  rack.name = rack_reader.optional_string("name").value_or(fmt::format("rack{}", r));
  check_name(rack_reader, "name", rack.name);
  // Zero bandwidth = not given: filled in once the rack's NICs are known.
  rack.switch_link = read_link(rack_reader, "switch", LinkSpec{0, kDefaultSwitchLatency});
  const nlohmann::json& nodes = rack_reader.required_value("nodes");
  if (!nodes.is_array() || nodes.empty()) rack_reader.fail("nodes", "expected a non-empty array of node groups");
  for (std::size_t g = 0; g < nodes.size(); ++g) {
    JsonObjectReader group(nodes[g], rack_reader.file(), rack_reader.path_of("nodes", g));
    read_node_group(group, names, rack, assumed);
  }
  read_uplink(rack_reader, racks, rack);
  rack_reader.finish();
  rack.switch_nonblocking = rack.switch_link.bandwidth_Bps == 0;
  if (!names.insert(rack.name).second)
    rack_reader.fail("name", fmt::format("rack name \"{}\" is also a node name", rack.name));
  return rack;
}

// "rails": {"count", "leaf", "oversubscription" | "uplink", "spine"} over the topology's one rack,
// checked against its nodes: one rack, no rack switch, every node with the same NICs, one per rail.
RailFabric read_rails(const JsonValue& value, const nlohmann::json& racks, const Topology& topology) {
  if (racks.size() != 1)
    value.fail(fmt::format("a rail fabric joins the nodes of one rack; this topology has {} racks", racks.size()));
  if (racks[0].contains("switch"))
    JsonValue(racks[0]["switch"], value.file(), "/racks/0/switch")
        .fail("with \"rails\" each NIC hangs off its rail's leaf switch (rails.leaf), not a rack switch; remove the rack's \"switch\"");
  JsonObjectReader reader = value.object();
  const std::vector<NodeSpec>& nodes = topology.racks.front().nodes;
  RailFabric rails;
  rails.rails = nodes.front().nics;
  for (const NodeSpec& node : nodes)
    if (node.nics != rails.rails)
      value.fail(fmt::format("node {} has {} NICs and node {} has {}: a rail fabric needs the same NICs on every node, "
                             "NIC i of each on rail i", nodes.front().name, rails.rails, node.name, node.nics));
  if (const auto count = reader.optional_int("count", 1, kMaxCount); count && *count != rails.rails)
    reader.fail("count", fmt::format("{} rails, but every node has {} NICs (one per rail)", *count, rails.rails));
  rails.leaf = read_link(reader, "leaf", LinkSpec{0, kDefaultSwitchLatency});
  rails.leaf_nonblocking = rails.leaf.bandwidth_Bps == 0;
  if (reader.optional_value("uplink") != nullptr && reader.optional_value("oversubscription") != nullptr)
    reader.fail("oversubscription", "give either \"uplink\" or \"oversubscription\", not both");
  double rail_nics = 0;  // one NIC per node on each rail
  for (const NodeSpec& node : nodes) rail_nics += node.nic.bandwidth_Bps;
  rails.uplink = read_link(reader, "uplink", LinkSpec{rail_nics, kDefaultUplinkLatency});
  if (const auto oversubscription = reader.optional_number("oversubscription", 1, std::numeric_limits<double>::max(),
                                                          "a ratio >= 1 such as 4 (4:1)"))
    rails.uplink.bandwidth_Bps = rail_nics / *oversubscription;
  rails.spine = read_link(reader, "spine", LinkSpec{0, kDefaultSpineLatency});
  rails.spine_nonblocking = rails.spine.bandwidth_Bps == 0;
  reader.finish();
  return rails;
}

}  // namespace

Topology load_topology(const std::filesystem::path& file) { return read_topology_json(load_json_file(file), file); }

Topology read_topology_json(const nlohmann::json& root, const std::filesystem::path& file) {
  const std::string name_of_file = file.string();
  JsonObjectReader top(root, name_of_file, "");
  Topology topology;
  topology.name = top.optional_string("name").value_or(file.stem().string());
  topology.description = top.optional_string("description").value_or("");
  const nlohmann::json& racks = top.required_value("racks");
  if (!racks.is_array() || racks.empty()) top.fail("racks", "expected a non-empty array of racks");
  if (racks.size() > 1) {
    topology.spine = read_link(top, "spine", LinkSpec{0, kDefaultSpineLatency});
    topology.spine_nonblocking = topology.spine->bandwidth_Bps == 0;
  } else if (top.optional_value("spine") != nullptr) {
    top.fail("spine", "a spine joins several racks; this topology has one");
  }
  const nlohmann::json* rails = top.optional_value("rails");
  const std::string rails_path = top.path_of("rails");
  top.finish();

  std::set<std::string> names;
  for (std::size_t r = 0; r < racks.size(); ++r) {
    JsonObjectReader rack_reader(racks[r], name_of_file, top.path_of("racks", r));
    topology.racks.push_back(read_rack(rack_reader, r, racks.size(), names, topology.assumed));
  }
  if (rails != nullptr) topology.rails = read_rails(JsonValue(*rails, name_of_file, rails_path), racks, topology);
  size_nonblocking_switches(topology);
  return topology;
}

}  // namespace ringsim
