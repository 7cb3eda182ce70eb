// What one print of a cluster (NCCL's topology XML, `nvidia-smi topo -m`, NCCL's INFO lines, `ibstat`,
// Slurm's topology.conf) says about its nodes, each fact with the place it was read: `ringsim import`
// merges the facts of several prints into one compact topology (topology_merge.h).
#pragma once

#include "../platform/topology.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// A fact and where it was read ("dgx.xml:12").
template <typename T>
struct Sourced {
  T value;
  std::string where;
};

// How the GPUs of a node reach each other: NVSwitch (every GPU's links into a switch), NVLink between
// GPU pairs without a switch (a bridge or a mesh), or PCIe only.
enum class GpuFabric { nvswitch, nvlink_mesh, pcie };

// One NIC as a print names it.
struct NicFact {
  std::string name;                        // "mlx5_0", "efa_0", "NIC2" when the print names none
  std::optional<double> rate_Gbps;         // line rate of its active port
  std::optional<NicTransport> transport;   // ib, roce (Ethernet link layer), efa, tcp
  bool virtual_function = false;           // an SR-IOV virtual function (cloud VMs)
  std::string where;
};

// A leaf switch of topology.conf and the nodes under it.
struct LeafSwitch {
  std::string name;
  int nodes = 0;
  bool operator==(const LeafSwitch&) const = default;
};

struct PrintFacts {
  std::string file;
  std::string kind;  // the reader's name ("nccl-xml", ...)
  std::optional<Sourced<int>> gpus;                // per node
  std::optional<Sourced<std::string>> gpu_model;   // as nvidia-smi names it ("H100 80GB HBM3")
  std::optional<Sourced<int>> compute_capability;  // NCCL's sm (80, 90)
  std::optional<Sourced<GpuFabric>> fabric;
  std::optional<Sourced<int>> nvlinks_per_gpu;     // NVLink links of one GPU
  std::optional<Sourced<int>> numa_nodes;            // CPU NUMA nodes the GPUs and NICs hang off
  std::optional<Sourced<int>> pcie_switch_gpus;    // GPUs under each PCIe switch, where every switch holds as many
  // Every NIC the print lists, and the ones beside a GPU in the node's order (what NCCL uses: the
  // topology's NICs), with each GPU's NIC among those (-1: none beside it).
  std::vector<NicFact> nics;
  std::optional<Sourced<std::vector<std::string>>> used_nics;
  std::optional<Sourced<std::vector<int>>> nic_affinity;
  std::optional<Sourced<bool>> gdr;
  std::optional<Sourced<int>> nodes;
  std::optional<Sourced<std::vector<LeafSwitch>>> leaf_switches;
  // What the print leaves out or what could not be stated ("no <gpu> elements: ..."), for the description.
  std::vector<std::string> notes;
};

// "nvswitch", "nvlink mesh", "pcie".
const char* gpu_fabric_name(GpuFabric fabric);

}  // namespace ringsim
