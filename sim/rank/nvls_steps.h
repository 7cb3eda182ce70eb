// How nccl_nvls and nccl_nvls_tree cut the buffer: steps of one NCCL nvlsChunkSize (128 KiB) per
// shard, a few in flight, as NCCL's NVLS channels keep the switch busy.
#pragma once

#include <cstddef>

namespace ringsim {

inline constexpr std::size_t kNvlsChunkFloats = (128u << 10) / sizeof(float);
inline constexpr int kNvlsStepsInFlight = 4;
// Across nodes a step waits for its round trip up and down the tree: more steps keep the links busy.
inline constexpr int kNvlsTreeStepsInFlight = 16;

}  // namespace ringsim
