#include "size_parts.h"

#include <algorithm>
#include <numeric>

namespace ringsim {

std::vector<std::vector<std::uint64_t>> split_sizes(const std::vector<std::uint64_t>& sizes, std::size_t parts) {
  parts = std::clamp<std::size_t>(parts, 1, std::max<std::size_t>(sizes.size(), 1));
  if (parts == 1) return {sizes};
  const auto cost = [](std::uint64_t bytes) { return std::max(bytes, kSizeCostFloorBytes); };
  // Longest first, each to the cheapest part: the largest size alone bounds the wall time anyway.
  std::vector<std::size_t> by_cost(sizes.size());
  std::iota(by_cost.begin(), by_cost.end(), 0);
  std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) { return cost(sizes[a]) > cost(sizes[b]); });
  std::vector<std::uint64_t> load(parts, 0);
  std::vector<std::size_t> part_of(sizes.size(), 0);
  for (std::size_t index : by_cost) {
    const auto cheapest = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    part_of[index] = cheapest;
    load[cheapest] += cost(sizes[index]);
  }
  std::vector<std::vector<std::uint64_t>> split(parts);
  for (std::size_t i = 0; i < sizes.size(); ++i) split[part_of[i]].push_back(sizes[i]);
  return split;
}

void put_in_size_order(std::vector<SizeResult>& results, const std::vector<std::uint64_t>& sizes) {
  const auto position = [&](std::uint64_t bytes) { return std::find(sizes.begin(), sizes.end(), bytes) - sizes.begin(); };
  std::stable_sort(results.begin(), results.end(),
                   [&](const SizeResult& a, const SizeResult& b) { return position(a.bytes) < position(b.bytes); });
}

}  // namespace ringsim
