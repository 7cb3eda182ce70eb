// The registry of print kinds. Order matters for detection: the most specific marker first (a log
// may quote a topology file or a switch line; NCCL's INFO lines are the loosest marker).
#include "print_readers.h"

#include "../common/input_error.h"
#include "../common/json_input.h"

#include <fmt/format.h>

namespace ringsim {

const char* gpu_fabric_name(GpuFabric fabric) {
  switch (fabric) {
    case GpuFabric::nvswitch: return "NVSwitch";
    case GpuFabric::nvlink_mesh: return "NVLink between GPU pairs, no NVSwitch";
    case GpuFabric::pcie: return "PCIe only";
  }
  return "PCIe only";
}

const std::vector<PrintReader>& print_readers() {
  static const std::vector<PrintReader> kReaders{
      {"nccl-xml", "NCCL's topology XML (NCCL_TOPO_DUMP_FILE, or a vendor's NCCL_TOPO_FILE)", detect_nccl_topology_xml,
       read_nccl_topology_xml},
      {"slurm-topology", "Slurm's topology.conf (SwitchName=... Switches=... Nodes=...)", detect_slurm_topology, read_slurm_topology},
      {"ibstat", "ibstat or ibv_devinfo", detect_ibstat, read_ibstat},
      {"nvidia-smi-topo", "nvidia-smi topo -m (or -mp)", detect_nvidia_smi_topo, read_nvidia_smi_topo},
      {"nccl-info", "NCCL's INFO lines (NCCL_DEBUG=INFO)", detect_nccl_info_print, read_nccl_info_print},
  };
  return kReaders;
}

PrintFacts read_print(const std::filesystem::path& file) {
  const std::string text = read_input_file(file);
  for (const auto& reader : print_readers())
    if (reader.detect(text)) return reader.read(text, file.string());
  std::vector<std::string_view> kinds;
  for (const auto& reader : print_readers()) kinds.push_back(reader.description);
  throw InputError(fmt::format("{}:1: expected a print ringsim import reads: {}", file.string(), fmt::join(kinds, "; ")));
}

}  // namespace ringsim
