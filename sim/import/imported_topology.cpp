#include "imported_topology.h"

#include "fact_merge.h"

#include "../platform/gpu_generation.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

// NVLink links per GPU where no print counts them, by generation: P100 4, V100 6, A100 12, H100 and B200 18.
int default_nvlinks(int compute_capability) {
  return compute_capability >= 90 ? 18 : compute_capability >= 80 ? 12 : compute_capability >= 70 ? 6 : 4;
}

// The description's sentences: what each fact is and where it came from, then the defaults.
struct Description {
  std::vector<std::string> facts;
  std::vector<std::string> defaults;
  std::vector<std::string> notes;

  template <typename T>
  void fact(const std::optional<Sourced<T>>& value, const std::string& what) {
    if (value) facts.push_back(fmt::format("{} ({})", what, value->where));
  }
};

std::string gbps(double rate) { return fmt::format("{}Gbps", rate); }

void write_gpus(const MergedNode& node, nlohmann::ordered_json& group, Description& description) {
  const int gpus = node.gpus ? node.gpus->value : 1;
  group["gpus"] = gpus;
  description.fact(node.gpus, fmt::format("{} GPU{} per node", gpus, gpus == 1 ? "" : "s"));
  if (!node.gpus) description.defaults.push_back("1 GPU per node");
  if (node.gpu_model) {
    group["gpu_model"] = node.gpu_model->value;
    description.fact(node.gpu_model, fmt::format("GPU model {}", node.gpu_model->value));
  }
  if (node.compute_capability != 0 && (!node.gpu_model || node.gpu_model->where != node.compute_capability_where))
    description.facts.push_back(fmt::format("compute capability {} ({})", node.compute_capability, node.compute_capability_where));
}

// Eight SXM GPUs of Ampere or later: an HGX board, whose GPUs reach each other through NVSwitch.
bool sxm_board_of_eight(const MergedNode& node) {
  return node.gpus && node.gpus->value == 8 && node.gpu_model && node.gpu_model->value.find("SXM") != std::string::npos &&
         node.compute_capability >= 80;
}

// NVSwitch ports or NVLink pairs at the generation's line rate per link; PCIe at the format's bus.
void write_fabric(const MergedNode& node, nlohmann::ordered_json& group, Description& description) {
  if (!node.fabric && sxm_board_of_eight(node)) {
    MergedNode on_nvswitch = node;
    on_nvswitch.fabric = Sourced<GpuFabric>{GpuFabric::nvswitch, node.gpu_model->where};
    description.defaults.push_back(fmt::format("NVSwitch: eight {} GPUs sit on an HGX board (no print shows their NVLink)", node.gpu_model->value));
    write_fabric(on_nvswitch, group, description);
    return;
  }
  if (!node.fabric || node.fabric->value == GpuFabric::pcie) {
    group["intra"] = {{"kind", "pcie"}};
    if (node.fabric) description.fact(node.fabric, "GPUs joined by PCIe only, one bus of 12 GB/s (the format's)");
    else description.defaults.push_back("GPUs on one PCIe bus of 12 GB/s (no print says how they are joined)");
    return;
  }
  const int capability = node.compute_capability != 0 ? node.compute_capability : 80;
  const int links = node.nvlinks ? node.nvlinks->value : default_nvlinks(capability);
  const double port_GBps = links * nvlink_line_GBps(capability);
  group["intra"] = {{"kind", "nvlink"}, {"bandwidth", fmt::format("{}GBps", port_GBps)}};
  description.fact(node.fabric, gpu_fabric_name(node.fabric->value));
  description.fact(node.nvlinks, fmt::format("{} NVLink links per GPU", links));
  description.facts.push_back(fmt::format("so {} GB/s per GPU and direction at {} GB/s per link", port_GBps, nvlink_line_GBps(capability)));
  if (!node.nvlinks) description.defaults.push_back(fmt::format("{} NVLink links per GPU (the generation's)", links));
  if (node.compute_capability == 0) description.defaults.push_back("NVLink's line rate of Ampere (no print names the GPUs' generation)");
  if (node.fabric->value == GpuFabric::nvlink_mesh)
    description.notes.push_back("NVLink without NVSwitch is written as each GPU's ports into a non-blocking fabric");
}

std::vector<int> default_affinity(int gpus, int nics) {
  std::vector<int> affinity;
  for (int g = 0; g < gpus; ++g) affinity.push_back(g * nics / gpus);
  return affinity;
}

// nic_affinity's rule: each of the NICS has a GPU beside it or one leaving through it (a GPU with none
// beside it leaves through NIC g*nics/gpus), and no GPU names another.
bool every_nic_used(const std::vector<int>& affinity, int nics) {
  std::vector<bool> used(static_cast<std::size_t>(nics), false);
  const int gpus = static_cast<int>(affinity.size());
  for (int g = 0; g < gpus; ++g) {
    const int nic = affinity[static_cast<std::size_t>(g)];
    if (nic >= nics) return false;
    used[static_cast<std::size_t>(nic >= 0 ? nic : g * nics / gpus)] = true;
  }
  return std::find(used.begin(), used.end(), false) == used.end();
}

void write_nics(const MergedNode& node, nlohmann::ordered_json& group, Description& description) {
  const int gpus = group["gpus"].get<int>();
  int nics = node.used_nics ? static_cast<int>(node.used_nics->value.size()) : 1;
  if (node.affinity && !node.affinity->value.empty())
    nics = std::max(nics, *std::max_element(node.affinity->value.begin(), node.affinity->value.end()) + 1);
  nics = std::max(1, std::min(nics, gpus));
  group["nics"] = nics;
  if (node.used_nics) description.fact(node.used_nics, fmt::format("{} NIC{} NCCL uses ({})", nics, nics == 1 ? "" : "s", fmt::join(node.used_nics->value, ", ")));
  else description.defaults.push_back("1 NIC per node");
  if (node.affinity && static_cast<int>(node.affinity->value.size()) == gpus && node.affinity->value != default_affinity(gpus, nics) &&
      every_nic_used(node.affinity->value, nics)) {
    nlohmann::ordered_json affinity = nlohmann::ordered_json::array();
    for (const int nic : node.affinity->value) affinity.push_back(nic < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(nic));
    group["nic_affinity"] = affinity;
  }
  description.fact(node.affinity, fmt::format("each GPU's NIC {}", node.affinity ? affinity_text(node.affinity->value) : ""));
  if (node.transport) group["nic_transport"] = std::string(nic_transport_name(node.transport->value));
  description.fact(node.transport, fmt::format("transport {}", node.transport ? nic_transport_name(node.transport->value) : ""));
  if (!node.transport) description.defaults.push_back("transport tcp");
  if (node.nic_rate) group["nic"] = {{"bandwidth", gbps(node.nic_rate->value)}};
  description.fact(node.nic_rate, fmt::format("{} per NIC", node.nic_rate ? fmt::format("{} Gb/s", node.nic_rate->value) : ""));
  if (!node.nic_rate) description.defaults.push_back("10 Gb/s per NIC");
  description.defaults.push_back(node.transport && node.transport->value == NicTransport::efa ? "NIC latency 10 us (EFA's)" : "NIC latency 1 us");
}

void write_gdr(const MergedNode& node, nlohmann::ordered_json& group, Description& description) {
  if (!node.gdr) {
    // The topology's own default: off where no GPU has a NIC beside it (NCCL's GDR level is not met).
    const bool nic_beside_none = node.affinity && std::all_of(node.affinity->value.begin(), node.affinity->value.end(), [](int nic) { return nic < 0; });
    description.defaults.push_back(nic_beside_none ? "GPUDirect RDMA off (no NIC beside a GPU)" : "GPUDirect RDMA on");
    return;
  }
  description.fact(node.gdr, fmt::format("GPUDirect RDMA {}", node.gdr->value ? "on" : "off"));
  group["gdr"] = node.gdr->value;
}

nlohmann::ordered_json node_group(const MergedNode& node, Description& description) {
  nlohmann::ordered_json group;
  group["name"] = "node";
  write_gpus(node, group, description);
  write_fabric(node, group, description);
  write_nics(node, group, description);
  write_gdr(node, group, description);
  description.fact(node.numa_nodes, fmt::format("{} CPU NUMA nodes", node.numa_nodes ? node.numa_nodes->value : 0));
  description.fact(node.pcie_switch_gpus, fmt::format("{} GPUs per PCIe switch", node.pcie_switch_gpus ? node.pcie_switch_gpus->value : 0));
  description.defaults.push_back("GPU speed 1 Tflop/s");
  return group;
}

// One rack per leaf switch of topology.conf, or one rack of all the nodes.
nlohmann::ordered_json racks(const MergedNode& node, const ImportOptions& options, nlohmann::ordered_json group,
                             std::vector<std::string>& warnings, Description& description) {
  std::optional<Sourced<int>> nodes = node.nodes;
  if (options.nodes) {
    if (nodes && nodes->value != *options.nodes && !node.leaves)
      warnings.push_back(fmt::format("nodes: --nodes says {}, {} says {}; using {}", *options.nodes, nodes->where, nodes->value, *options.nodes));
    if (!node.leaves) nodes = Sourced<int>{*options.nodes, "--nodes"};
    else if (*options.nodes != nodes->value)
      warnings.push_back(fmt::format("nodes: {} says {} under its leaf switches, --nodes says {}; using {}", nodes->where, nodes->value,
                                     *options.nodes, nodes->value));
  }
  description.fact(nodes, fmt::format("{} node{}", nodes ? nodes->value : 1, nodes && nodes->value != 1 ? "s" : ""));
  if (!nodes) description.defaults.push_back("1 node");
  description.defaults.push_back("non-blocking switches");
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  if (!node.leaves) {
    group["count"] = nodes ? nodes->value : 1;
    list.push_back({{"name", "rack0"}, {"nodes", nlohmann::ordered_json::array({group})}});
    return list;
  }
  description.fact(node.leaves, fmt::format("{} leaf switches, each a rack", node.leaves->value.size()));
  for (std::size_t r = 0; r < node.leaves->value.size(); ++r) {
    const LeafSwitch& leaf = node.leaves->value[r];
    const bool usable = leaf.name.find_first_of(" \t\n\"'<>&/") == std::string::npos && leaf.name.size() < 200;
    const std::string rack = usable ? leaf.name : fmt::format("rack{}", r);
    group["name"] = rack + "-node";
    group["count"] = leaf.nodes;
    list.push_back({{"name", rack}, {"nodes", nlohmann::ordered_json::array({group})}});
  }
  return list;
}

}  // namespace

ImportedTopology import_topology(const std::vector<PrintFacts>& prints, const ImportOptions& options) {
  ImportedTopology imported;
  const MergedNode node = merge_facts(prints, imported.warnings);
  Description description;
  nlohmann::ordered_json group = node_group(node, description);
  nlohmann::ordered_json rack_list = racks(node, options, std::move(group), imported.warnings, description);
  std::vector<std::string> sources;
  for (const PrintFacts& print : prints) {
    sources.push_back(fmt::format("{} ({})", print.file, print.kind));
    description.notes.insert(description.notes.end(), print.notes.begin(), print.notes.end());
  }
  std::string text = fmt::format("Imported by ringsim import from {}. Facts: {}. Defaults (no print states them): {}.", fmt::join(sources, ", "),
                                 fmt::join(description.facts, "; "), fmt::join(description.defaults, "; "));
  if (!description.notes.empty()) text += fmt::format(" Notes: {}.", fmt::join(description.notes, "; "));
  imported.topology["name"] = options.name;
  imported.topology["description"] = text;
  imported.topology["racks"] = std::move(rack_list);
  return imported;
}

}  // namespace ringsim
