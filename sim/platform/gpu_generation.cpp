#include "gpu_generation.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace ringsim {

std::optional<int> gpu_compute_capability(std::string_view device_name) {
  std::string name(device_name);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  // Most specific first; each family's marks as nvidia-smi prints them.
  static const std::pair<const char*, int> kFamilies[] = {
      {"B200", 100}, {"B100", 100}, {"B300", 100},                                                  // Blackwell
      {"H100", 90}, {"H200", 90}, {"H800", 90}, {"H20", 90},                                         // Hopper
      {"A100", 80}, {"A800", 80}, {"A40", 80}, {"A30", 80}, {"A10", 80}, {"RTX A", 80}, {"RTX 30", 80},  // Ampere
      {"L40", 80}, {"L4", 80}, {"RTX 40", 80}, {" ADA", 80},                                        // Ada: Ampere's index
      {"V100", 70}, {"TITAN V", 70}, {"GV100", 70},                                                  // Volta
      {"T4", 70}, {"RTX 20", 70}, {"TITAN RTX", 70}, {"QUADRO RTX", 70},                            // Turing: Volta's index
      {"P100", 60}, {"P40", 60}, {"GTX 10", 60}};                                                    // Pascal
  for (const auto& [mark, capability] : kFamilies)
    if (name.find(mark) != std::string::npos) return capability;
  return std::nullopt;
}

}  // namespace ringsim
