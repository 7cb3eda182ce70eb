// What a topology's "gpu_model" implies about its GPUs when the topology does not state it: the
// NVLink line rate per GPU and direction (links x the generation's rate per link) and the GPU's
// speed for reductions (FP32 peak, one flop per float added), from NVIDIA's datasheets.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ringsim {

struct GpuModelRates {
  std::string label;          // the model as the table's header names it: "H100 SXM"
  int nvlink_links = 0;       // NVLink links per GPU; 0: none (a PCIe card without a bridge)
  double nvlink_link_GBps = 0;  // per link and direction
  double fp32_flops = 0;      // 0: not known
  double nvlink_Bps() const { return nvlink_links * nvlink_link_GBps * 1e9; }
};

// nullopt for a model whose rates ringsim does not know (its generation may still be known).
std::optional<GpuModelRates> gpu_model_rates(std::string_view device_name);

}  // namespace ringsim
