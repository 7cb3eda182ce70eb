#include "size_limits.h"

#include "../common/input_error.h"
#include "../common/units.h"
#include "../model/algorithm_registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <string>

namespace ringsim {
namespace {

// MemAvailable of /proc/meminfo, or nullopt where there is none.
std::optional<std::uint64_t> memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::nullopt;
}

int largest_rank_count(const Scenario& scenario) {
  int ranks = 0;
  for (const auto& placement : scenario.placements) ranks = std::max(ranks, placement.total_ranks());
  return ranks;
}

}  // namespace

void check_simulated_sizes(const Scenario& scenario, std::optional<std::uint64_t> available_bytes) {
  const std::uint64_t largest = *std::max_element(scenario.sizes.begin(), scenario.sizes.end());
  const std::string file = scenario.file.string();
  if (largest > kLargestSimulatedSize)
    throw InputError(fmt::format("{}: size {} is beyond the largest ringsim simulates, {} per rank (MPI's int counts of "
                                 "32-byte elements); simulate sizes up to {}",
                                 file, format_bytes(largest), format_bytes(kLargestSimulatedSize), format_bytes(kLargestSimulatedSize)));
  const auto runs_library = [](const std::string& name) { return names_algorithm(name, AlgorithmId::mpi); };
  if (std::none_of(scenario.algorithms.begin(), scenario.algorithms.end(), runs_library)) return;
  if (largest / sizeof(float) > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw InputError(fmt::format("{}: the mpi algorithm calls MPI_Allreduce with an int count of floats, below 8 GiB; "
                                 "size {} is not: simulate it with ring, nccl_ring or another ringsim algorithm",
                                 file, format_bytes(largest)));
  // SMPI's MPI_Allreduce reduces through a buffer of its own the size of the message in every rank,
  // all of it touched (2 ranks x 2 GiB: 6.3 GB resident), so at least the size per rank.
  const std::uint64_t needed = largest * static_cast<std::uint64_t>(largest_rank_count(scenario));
  const auto available = available_bytes ? available_bytes : memory_available();
  if (available && needed > *available)
    throw InputError(fmt::format("{}: the mpi algorithm runs SMPI's own MPI_Allreduce, whose buffers hold real memory: {} "
                                 "ranks x {} need at least {}, and this machine has {:.1f} GiB available; simulate that size with "
                                 "ring, nccl_ring or another ringsim algorithm (their buffers take no memory)",
                                 file, largest_rank_count(scenario), format_bytes(largest), format_bytes(needed),
                                 static_cast<double>(*available) / (1ULL << 30)));
}

}  // namespace ringsim
