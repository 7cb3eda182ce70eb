#include "gpu_model_rates.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace ringsim {
namespace {

struct KnownModel {
  const char* mark;        // as nvidia-smi prints it, upper case; the first that matches wins
  const char* label;
  int nvlink_links;
  double nvlink_link_GBps;
  double fp32_Tflops;
};

// NVLink: links x GB/s per link and direction (NVIDIA counts both directions: 900 GB/s on H100 SXM
// is 18 x 25 each way). A PCIe card's NVLink is its bridge's. FP32: the datasheet's non-tensor peak.
constexpr KnownModel kModels[] = {
    {"GB200", "B200", 18, 50, 80},       {"B200", "B200", 18, 50, 80},
    {"H100 NVL", "H100 NVL", 12, 25, 60}, {"H100 PCIE", "H100 PCIe", 12, 25, 51},
    {"H100", "H100 SXM", 18, 25, 67},    {"H200", "H200 SXM", 18, 25, 67},   {"H800", "H800 SXM", 8, 25, 67},
    {"A100 80GB PCIE", "A100 PCIe", 12, 25, 19.5}, {"A100-PCIE", "A100 PCIe", 12, 25, 19.5},
    {"A100", "A100 SXM", 12, 25, 19.5},  {"A800", "A800 SXM", 8, 25, 19.5},
    {"V100-PCIE", "V100 PCIe", 0, 25, 14}, {"V100 PCIE", "V100 PCIe", 0, 25, 14},
    {"V100", "V100 SXM2", 6, 25, 15.7},  {"P100", "P100 SXM2", 4, 20, 10.6},
    {"L40S", "L40S", 0, 0, 91.6},        {"RTX 2080 TI", "GeForce RTX 2080 Ti", 2, 25, 13.4}};

}  // namespace

std::optional<GpuModelRates> gpu_model_rates(std::string_view device_name) {
  std::string name(device_name);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const KnownModel& model : kModels)
    if (name.find(model.mark) != std::string::npos)
      return GpuModelRates{model.label, model.nvlink_links, model.nvlink_link_GBps, model.fp32_Tflops * 1e12};
  return std::nullopt;
}

}  // namespace ringsim
