// The facts of several prints merged into one node's: each fact from the print that states it best (the
// node's layout from NCCL's XML, then nvidia-smi, then NCCL's log; a NIC's rate and transport from
// ibstat first), a warning naming both prints wherever two disagree.
#pragma once

#include "print_facts.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// What the prints say together, each fact with the place it was read.
struct MergedNode {
  std::optional<Sourced<int>> gpus;
  std::optional<Sourced<std::string>> gpu_model;
  int compute_capability = 0;
  std::string compute_capability_where;
  std::optional<Sourced<GpuFabric>> fabric;
  std::optional<Sourced<int>> nvlinks;
  std::optional<Sourced<std::vector<std::string>>> used_nics;
  std::optional<Sourced<std::vector<int>>> affinity;
  std::optional<Sourced<double>> nic_rate;
  std::optional<Sourced<NicTransport>> transport;
  std::optional<Sourced<bool>> gdr;
  std::optional<Sourced<int>> numa_nodes;
  std::optional<Sourced<int>> pcie_switch_gpus;
  std::optional<Sourced<int>> nodes;
  std::optional<Sourced<std::vector<LeafSwitch>>> leaves;
};

// "[1, 1, 3, 3, none]": each GPU's NIC, as the description and the warnings show it.
std::string affinity_text(const std::vector<int>& affinity);

// WARNINGS gets one line per disagreement: "NIC rate: ib.txt:12 says 400 Gb/s, node.xml:30 says 200 Gb/s; using 400 Gb/s".
MergedNode merge_facts(const std::vector<PrintFacts>& prints, std::vector<std::string>& warnings);

}  // namespace ringsim
