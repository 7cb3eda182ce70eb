// The generation NCCL's model tells apart (compCapIndex: 70 for Volta and Turing, 80 for Ampere and
// Ada, 90 for Hopper, 100 for Blackwell; 60 for Pascal) of a GPU named as nvidia-smi and nccl-tests
// name it ("NVIDIA H100 80GB HBM3", "GeForce RTX 2080 Ti"): read from trace headers and from a
// topology's "gpu_model".
#pragma once

#include <optional>
#include <string_view>

namespace ringsim {

// nullopt for a name ringsim does not know.
std::optional<int> gpu_compute_capability(std::string_view device_name);

}  // namespace ringsim
