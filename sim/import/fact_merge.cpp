#include "fact_merge.h"

#include "../platform/gpu_generation.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace ringsim {

std::string affinity_text(const std::vector<int>& affinity) {
  std::vector<std::string> entries;
  for (const int nic : affinity) entries.push_back(nic < 0 ? "none" : std::to_string(nic));
  return fmt::format("[{}]", fmt::join(entries, ", "));
}

namespace {

// Whose word is taken on the node's layout (GPUs, fabric, the NICs beside the GPUs, GDR, nodes): the
// topology NCCL built first, then nvidia-smi's matrix, then what NCCL logged.
constexpr std::string_view kLayoutOrder[] = {"nccl-xml", "nvidia-smi-topo", "nccl-info", "ibstat", "slurm-topology"};
// ... and on a NIC's rate and transport: what the port itself reports first.
constexpr std::string_view kNicOrder[] = {"ibstat", "nccl-info", "nccl-xml", "nvidia-smi-topo", "slurm-topology"};

std::vector<const PrintFacts*> ordered(const std::vector<PrintFacts>& prints, std::span<const std::string_view> kinds) {
  std::vector<const PrintFacts*> order;
  for (const auto kind : kinds)
    for (const PrintFacts& print : prints)
      if (print.kind == kind) order.push_back(&print);
  return order;
}

std::string shown(int value) { return std::to_string(value); }
std::string shown(bool value) { return value ? "on" : "off"; }
std::string shown(double value) { return fmt::format("{} Gb/s", value); }
std::string shown(const std::string& value) { return value; }
std::string shown(GpuFabric value) { return gpu_fabric_name(value); }
std::string shown(NicTransport value) { return std::string(nic_transport_name(value)); }
std::string shown(const std::vector<std::string>& names) { return fmt::format("{}", fmt::join(names, ", ")); }
std::string shown(const std::vector<LeafSwitch>& leaves) {
  std::vector<std::string> entries;
  for (const LeafSwitch& leaf : leaves) entries.push_back(fmt::format("{} ({} nodes)", leaf.name, leaf.nodes));
  return fmt::format("{}", fmt::join(entries, ", "));
}
std::string shown(const std::vector<int>& affinity) { return affinity_text(affinity); }

// The GPUs grouped by the NIC beside them, the NICs numbered by first use: two prints that number the
// same NICs differently (NCCL's order, the PCI tree's) describe the same node.
std::vector<int> affinity_shape(const std::vector<int>& affinity) {
  std::map<int, int> relabel;
  std::vector<int> shape;
  for (const int nic : affinity) {
    if (nic < 0) shape.push_back(-1);
    else shape.push_back(relabel.emplace(nic, static_cast<int>(relabel.size())).first->second);
  }
  return shape;
}

class Merger {
 public:
  explicit Merger(const std::vector<PrintFacts>& prints) : layout_(ordered(prints, kLayoutOrder)), nic_order_(ordered(prints, kNicOrder)) {}

  // The first of the prints (in ORDER) stating FIELD; a warning for each later one stating another value.
  template <typename T>
  std::optional<Sourced<T>> agreed(std::string_view what, const std::vector<std::optional<Sourced<T>>>& candidates) {
    std::optional<Sourced<T>> chosen;
    for (const auto& candidate : candidates) {
      if (!candidate) continue;
      if (!chosen) chosen = candidate;
      else if (!(candidate->value == chosen->value))
        warnings.push_back(fmt::format("{}: {} says {}, {} says {}; using {}", what, chosen->where, shown(chosen->value), candidate->where,
                                       shown(candidate->value), shown(chosen->value)));
    }
    return chosen;
  }
  template <typename T>
  std::optional<Sourced<T>> layout_fact(std::string_view what, std::optional<Sourced<T>> PrintFacts::*field) {
    std::vector<std::optional<Sourced<T>>> candidates;
    for (const PrintFacts* print : layout_) candidates.push_back(print->*field);
    return agreed(what, candidates);
  }

  MergedNode merge();

  std::vector<std::string> warnings;

 private:
  void merge_generation(MergedNode& node);
  void merge_placement(MergedNode& node);
  void merge_nic_ports(MergedNode& node);
  std::vector<const PrintFacts*> layout_, nic_order_;
};

void Merger::merge_generation(MergedNode& node) {
  node.gpu_model = layout_fact("GPU model", &PrintFacts::gpu_model);
  if (node.gpu_model && !gpu_compute_capability(node.gpu_model->value)) node.gpu_model.reset();
  std::vector<std::optional<Sourced<int>>> generations;
  if (node.gpu_model) generations.push_back(Sourced<int>{*gpu_compute_capability(node.gpu_model->value), node.gpu_model->where});
  for (const PrintFacts* print : layout_) generations.push_back(print->compute_capability);
  if (const auto generation = agreed("GPU generation (compute capability)", generations)) {
    node.compute_capability = generation->value;
    node.compute_capability_where = generation->where;
  }
}

// The NICs beside the GPUs and each GPU's NIC, from the first print that pairs them (its numbering).
void Merger::merge_placement(MergedNode& node) {
  const PrintFacts* placing = nullptr;
  for (const PrintFacts* print : layout_) {
    if (!print->nic_affinity) continue;
    if (placing == nullptr) {
      placing = print;
    } else if (affinity_shape(print->nic_affinity->value) != affinity_shape(placing->nic_affinity->value)) {
      warnings.push_back(fmt::format("each GPU's NIC: {} says {}, {} says {}; using {}", placing->nic_affinity->where,
                                     shown(placing->nic_affinity->value), print->nic_affinity->where, shown(print->nic_affinity->value),
                                     shown(placing->nic_affinity->value)));
    }
  }
  if (placing != nullptr) {
    node.affinity = placing->nic_affinity;
    node.used_nics = placing->used_nics;
  }
  if (!node.used_nics) node.used_nics = layout_fact("NICs beside the GPUs", &PrintFacts::used_nics);
  if (node.affinity && node.affinity->value.empty()) node.affinity.reset();
  if (node.used_nics && node.affinity) {
    const int highest = *std::max_element(node.affinity->value.begin(), node.affinity->value.end());
    if (highest >= static_cast<int>(node.used_nics->value.size())) node.affinity.reset();
  }
}

// PRINT's word on the used NICs' FIELD: the most common value among them (among all its NICs when it
// names none of them).
template <typename T>
std::optional<Sourced<T>> nic_value(const PrintFacts& print, const std::vector<std::string>& used, std::optional<T> NicFact::*field) {
  std::vector<const NicFact*> matching;
  for (const NicFact& nic : print.nics)
    if (std::find(used.begin(), used.end(), nic.name) != used.end()) matching.push_back(&nic);
  if (matching.empty())
    for (const NicFact& nic : print.nics) matching.push_back(&nic);
  std::map<T, std::pair<int, std::string>> votes;
  for (const NicFact* nic : matching)
    if (nic->*field) {
      auto& vote = votes[*(nic->*field)];
      if (vote.first++ == 0) vote.second = nic->where;
    }
  if (votes.empty()) return std::nullopt;
  const auto best = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
  return Sourced<T>{best->first, best->second.second};
}

void Merger::merge_nic_ports(MergedNode& node) {
  const std::vector<std::string> used = node.used_nics ? node.used_nics->value : std::vector<std::string>{};
  std::vector<std::optional<Sourced<double>>> rates;
  std::vector<std::optional<Sourced<NicTransport>>> transports;
  for (const PrintFacts* print : nic_order_) {
    rates.push_back(nic_value(*print, used, &NicFact::rate_Gbps));
    transports.push_back(nic_value(*print, used, &NicFact::transport));
  }
  node.nic_rate = agreed("NIC rate", rates);
  node.transport = agreed("NIC transport", transports);
}

MergedNode Merger::merge() {
  MergedNode node;
  node.gpus = layout_fact("GPUs per node", &PrintFacts::gpus);
  merge_generation(node);
  node.fabric = layout_fact("GPU fabric", &PrintFacts::fabric);
  node.nvlinks = layout_fact("NVLink links per GPU", &PrintFacts::nvlinks_per_gpu);
  merge_placement(node);
  merge_nic_ports(node);
  node.gdr = layout_fact("GPUDirect RDMA", &PrintFacts::gdr);
  node.numa_nodes = layout_fact("CPU NUMA nodes", &PrintFacts::numa_nodes);
  node.pcie_switch_gpus = layout_fact("GPUs per PCIe switch", &PrintFacts::pcie_switch_gpus);
  node.nodes = layout_fact("nodes", &PrintFacts::nodes);
  node.leaves = layout_fact("leaf switches", &PrintFacts::leaf_switches);
  return node;
}

}  // namespace

MergedNode merge_facts(const std::vector<PrintFacts>& prints, std::vector<std::string>& warnings) {
  Merger merger(prints);
  MergedNode node = merger.merge();
  warnings.insert(warnings.end(), merger.warnings.begin(), merger.warnings.end());
  return node;
}

}  // namespace ringsim
