// Names and one-line summaries of the allreduce algorithms, shared by the `ringsim` command (which
// validates scenarios and prints --help) and the rank program's registry (allreduce_registry.cpp).
#pragma once

#include <array>
#include <string_view>

namespace ringsim {

struct AlgorithmInfo {
  std::string_view name;
  std::string_view summary;
};

inline constexpr std::array kAlgorithmCatalog{
    AlgorithmInfo{"ring", "baidu-allreduce ring: N-1 scatter-reduce steps (Irecv+Send+Wait+reduce), N-1 allgather steps"},
};

}  // namespace ringsim
