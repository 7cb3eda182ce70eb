// NCCL's topology XML: what NCCL_TOPO_DUMP_FILE writes (<cpu>, nested <pci> switches, <gpu> with its
// <nvlink>s, <nic><net .../></nic>) and the partial files cloud vendors ship for NCCL_TOPO_FILE (only
// <cpu> and <pci>, GPUs and NICs known by their PCI class).
#include "../nic_assignment.h"
#include "../print_readers.h"
#include "../xml_document.h"

#include "../../common/input_error.h"
#include "../../validate/text_table.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

// A GPU or a NIC and the elements above it, root first.
struct XmlDevice {
  std::vector<const XmlElement*> ancestors;
  const XmlElement* element = nullptr;  // <gpu>, <net>, or the <pci> of a partial file
  const XmlElement* pci = nullptr;      // its PCI device, when it sits under one
};

struct XmlInventory {
  std::vector<XmlDevice> gpus;           // <gpu> elements
  std::vector<XmlDevice> gpu_functions;  // <pci> of a GPU's class holding no <gpu> (partial files)
  std::vector<XmlDevice> nets;           // <net> elements
  std::vector<XmlDevice> nic_functions;  // <pci> of a network class holding no <nic>
  std::set<std::string> numa_ids;
  int cpus = 0;
};

std::string pci_class(const XmlElement& pci) {
  const std::string* value = pci.attribute("class");
  return value == nullptr ? std::string() : *value;
}
bool has_child(const XmlElement& element, std::string_view name) {
  return std::any_of(element.children.begin(), element.children.end(), [&](const XmlElement& c) { return c.name == name; });
}

void take_inventory(const XmlElement& element, std::vector<const XmlElement*>& ancestors, XmlInventory& inventory) {
  const XmlElement* pci = nullptr;
  for (auto it = ancestors.rbegin(); it != ancestors.rend() && pci == nullptr; ++it)
    if ((*it)->name == "pci") pci = *it;
  if (element.name == "cpu") {
    ++inventory.cpus;
    if (const std::string* numa = element.attribute("numaid")) inventory.numa_ids.insert(*numa);
  } else if (element.name == "gpu") {
    inventory.gpus.push_back({ancestors, &element, pci});
  } else if (element.name == "net") {
    inventory.nets.push_back({ancestors, &element, pci});
  } else if (element.name == "pci") {
    const std::string cls = pci_class(element);
    if ((cls.starts_with("0x0302") || cls.starts_with("0x0300")) && !has_child(element, "gpu"))
      inventory.gpu_functions.push_back({ancestors, &element, &element});
    if ((cls.starts_with("0x0200") || cls.starts_with("0x0207")) && !has_child(element, "nic"))
      inventory.nic_functions.push_back({ancestors, &element, &element});
  }
  ancestors.push_back(&element);
  for (const XmlElement& child : element.children) take_inventory(child, ancestors, inventory);
  ancestors.pop_back();
}

int integer_attribute(const XmlElement& element, std::string_view key, const std::string& file, std::string_view what) {
  const std::string* value = element.attribute(key);
  if (value == nullptr) throw InputError(fmt::format("{}:{}: expected <{}> to have {}=\"...\" ({})", file, element.line, element.name, key, what));
  const auto number = parse_count(*value);
  if (!number || *number > 1'000'000)
    throw InputError(fmt::format("{}:{}: <{} {}=\"{}\">: expected {}", file, element.line, element.name, key, *value, what));
  return static_cast<int>(*number);
}

// How far two devices are when a PCIe switch (a <pci> element above both) joins them: the steps up to
// it from each; nullopt when only the CPU (or nothing) joins them, as NCCL's PHB, NODE and SYS.
std::optional<int> pcie_distance(const XmlDevice& gpu, const XmlDevice& nic) {
  const auto& a = gpu.ancestors;
  const auto& b = nic.ancestors;
  std::size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  if (common == 0 || a[common - 1]->name != "pci") return std::nullopt;
  return static_cast<int>(a.size() + b.size() - 2 * common);
}

// The GPU model of a PCI device id NVIDIA's GPUs carry ("0x2330"), as nvidia-smi names it.
std::optional<std::string> gpu_model_of_device(std::string_view device) {
  static const std::map<std::string_view, std::string_view> kModels{
      {"0x2330", "H100 80GB HBM3"}, {"0x2331", "H100 PCIe"},      {"0x2324", "H800"},          {"0x20b0", "A100-SXM4-40GB"},
      {"0x20b2", "A100-SXM4-80GB"}, {"0x20b5", "A100 80GB PCIe"}, {"0x20f1", "A100-PCIE-40GB"}, {"0x1db1", "V100-SXM2-16GB"},
      {"0x1db5", "V100-SXM2-32GB"}, {"0x26b9", "L40S"}};
  const auto it = kModels.find(device);
  return it == kModels.end() ? std::nullopt : std::optional<std::string>(it->second);
}

void read_gpu_facts(const XmlInventory& inventory, const std::string& file, PrintFacts& facts) {
  const XmlDevice& first = inventory.gpus.front();
  const std::string at = fmt::format("{}:{}", file, first.element->line);
  facts.gpus = Sourced<int>{static_cast<int>(inventory.gpus.size()), at};
  facts.compute_capability = Sourced<int>{integer_attribute(*first.element, "sm", file, "NCCL's compute capability such as 80 or 90"), at};
  if (first.pci != nullptr)
    if (const std::string* device = first.pci->attribute("device"))
      if (auto model = gpu_model_of_device(*device)) facts.gpu_model = Sourced<std::string>{*model, fmt::format("{}:{}", file, first.pci->line)};
  int links = 0;
  bool to_switch = false;
  for (const XmlDevice& gpu : inventory.gpus) {
    int gpu_links = 0;
    for (const XmlElement& link : gpu.element->children) {
      if (link.name != "nvlink") continue;
      gpu_links += integer_attribute(link, "count", file, "the number of NVLink links, such as 12");
      const std::string* tclass = link.attribute("tclass");
      to_switch = to_switch || (tclass != nullptr && tclass->starts_with("0x0680"));
    }
    links = std::max(links, gpu_links);
  }
  facts.fabric = Sourced<GpuFabric>{links == 0 ? GpuFabric::pcie : to_switch ? GpuFabric::nvswitch : GpuFabric::nvlink_mesh, at};
  if (links > 0) facts.nvlinks_per_gpu = Sourced<int>{links, at};
}

NicFact nic_of_net(const XmlDevice& net, const std::string& file) {
  NicFact nic;
  const XmlElement& element = *net.element;
  nic.where = fmt::format("{}:{}", file, element.line);
  const std::string* name = element.attribute("name");
  if (name == nullptr) throw InputError(fmt::format("{}:{}: expected <net> to have name=\"...\" (the NIC's device, such as mlx5_0)", file, element.line));
  nic.name = *name;
  if (element.attribute("speed") != nullptr)
    nic.rate_Gbps = integer_attribute(element, "speed", file, "the port's speed in Mb/s, such as 400000") / 1000.0;
  nic.transport = transport_of_nic_name(nic.name);
  const std::string cls = net.pci != nullptr ? pci_class(*net.pci) : std::string();
  if (!nic.transport && cls.starts_with("0x0207")) nic.transport = NicTransport::ib;
  if (!nic.transport && cls.starts_with("0x0200") && nic.name.starts_with("mlx5")) nic.transport = NicTransport::roce;
  return nic;
}

NicFact nic_of_function(const XmlDevice& function, int index, const std::string& file) {
  NicFact nic;
  nic.name = fmt::format("NIC{}", index);
  nic.where = fmt::format("{}:{}", file, function.element->line);
  if (pci_class(*function.element).starts_with("0x0207")) nic.transport = NicTransport::ib;
  return nic;
}

void read_nic_facts(const std::vector<XmlDevice>& gpus, const std::vector<XmlDevice>& nics, const std::string& file, PrintFacts& facts) {
  std::vector<std::vector<std::optional<int>>> distance;
  for (const XmlDevice& gpu : gpus) {
    distance.emplace_back();
    for (const XmlDevice& nic : nics) distance.back().push_back(pcie_distance(gpu, nic));
  }
  const NicAssignment assignment = assign_nics(distance, static_cast<int>(nics.size()));
  const std::string at = fmt::format("{}:{}", file, nics.front().element->line);
  std::vector<std::string> used;
  for (const int n : assignment.used) used.push_back(facts.nics[static_cast<std::size_t>(n)].name);
  if (used.empty()) {
    state_no_nic_beside_gpus(facts, static_cast<int>(gpus.size()), at);
    return;
  }
  facts.used_nics = Sourced<std::vector<std::string>>{used, at};
  if (!gpus.empty()) facts.nic_affinity = Sourced<std::vector<int>>{assignment.affinity, at};
  if (used.size() < nics.size())
    facts.notes.push_back(fmt::format("{}: {} of {} NICs share a PCIe switch with no GPU (storage or management NICs) and are left out",
                                      file, nics.size() - used.size(), nics.size()));
}

// GPUDirect RDMA as NCCL found it: every used NIC's <net gdr="1">.
void read_gdr(const XmlInventory& inventory, PrintFacts& facts) {
  if (!facts.used_nics) return;
  for (const XmlDevice& net : inventory.nets) {
    const std::string* name = net.element->attribute("name");
    const std::string* gdr = net.element->attribute("gdr");
    if (name == nullptr || gdr == nullptr) continue;
    const auto& used = facts.used_nics->value;
    if (std::find(used.begin(), used.end(), *name) == used.end()) continue;
    const bool on = *gdr == "1";
    if (!facts.gdr || !on) facts.gdr = Sourced<bool>{on, fmt::format("{}:{}", facts.file, net.element->line)};
  }
}

}  // namespace

bool detect_nccl_topology_xml(std::string_view text) {
  const auto system = text.find("<system");
  return system != std::string_view::npos && text.find_first_not_of(" \t\r\n\xef\xbb\xbf") == text.find('<');
}

PrintFacts read_nccl_topology_xml(std::string_view text, const std::string& file) {
  const XmlElement root = parse_xml(text, file);
  if (root.name != "system")
    throw InputError(fmt::format("{}:{}: expected <system> as the root element (NCCL's topology XML), found <{}>", file, root.line, root.name));
  XmlInventory inventory;
  std::vector<const XmlElement*> ancestors;
  take_inventory(root, ancestors, inventory);
  PrintFacts facts;
  facts.file = file;
  facts.kind = "nccl-xml";
  const bool partial = inventory.gpus.empty();
  const std::vector<XmlDevice>& gpus = partial ? inventory.gpu_functions : inventory.gpus;
  const std::vector<XmlDevice>& nics = inventory.nets.empty() ? inventory.nic_functions : inventory.nets;
  if (gpus.empty() && nics.empty())
    throw InputError(fmt::format("{}:{}: expected GPUs (<gpu>, or <pci> of class 0x0302) or NICs (<net>, or <pci> of class 0x0207 "
                                 "or 0x0200) in <system>, found neither",
                                 file, root.line));
  if (!partial) {
    read_gpu_facts(inventory, file, facts);
  } else if (!gpus.empty()) {
    facts.gpus = Sourced<int>{static_cast<int>(gpus.size()), fmt::format("{}:{}", file, gpus.front().element->line)};
    facts.notes.push_back(fmt::format("{}: a partial file (no <gpu> elements): the GPUs' model and NVLink are not in it", file));
  }
  for (std::size_t n = 0; n < nics.size(); ++n)
    facts.nics.push_back(inventory.nets.empty() ? nic_of_function(nics[n], static_cast<int>(n), file) : nic_of_net(nics[n], file));
  if (inventory.nets.empty() && !nics.empty())
    facts.notes.push_back(fmt::format("{}: no <net> elements: the NICs' names, rates and GPUDirect RDMA are not in it", file));
  if (!nics.empty()) read_nic_facts(gpus, nics, file, facts);
  read_gdr(inventory, facts);
  if (!inventory.numa_ids.empty())
    facts.numa_nodes = Sourced<int>{static_cast<int>(inventory.numa_ids.size()), fmt::format("{}:{}", file, root.line)};
  return facts;
}

}  // namespace ringsim
