// The print readers of `ringsim import`, one file each under readers/, registered in print_readers.cpp
// and chosen by content (DESIGN.md, "Import"), as the trace readers of sim/validate are.
#pragma once

#include "print_facts.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct PrintReader {
  std::string_view name;
  std::string_view description;
  // True when TEXT looks like this kind of print (cheap, on its first lines or markers).
  bool (*detect)(std::string_view text);
  // The facts of TEXT; throws InputError "FILE:LINE: what was expected" for a print it cannot read.
  PrintFacts (*read)(std::string_view text, const std::string& file);
};

const std::vector<PrintReader>& print_readers();

// Reads FILE with the first reader whose detect() accepts it; throws InputError naming the file when
// it is unreadable, of no known kind, or malformed.
PrintFacts read_print(const std::filesystem::path& file);

// The readers, defined in readers/*.cpp.
bool detect_nccl_topology_xml(std::string_view text);
PrintFacts read_nccl_topology_xml(std::string_view text, const std::string& file);
bool detect_nvidia_smi_topo(std::string_view text);
PrintFacts read_nvidia_smi_topo(std::string_view text, const std::string& file);
bool detect_ibstat(std::string_view text);
PrintFacts read_ibstat(std::string_view text, const std::string& file);
bool detect_slurm_topology(std::string_view text);
PrintFacts read_slurm_topology(std::string_view text, const std::string& file);
bool detect_nccl_info_print(std::string_view text);
PrintFacts read_nccl_info_print(std::string_view text, const std::string& file);

}  // namespace ringsim
