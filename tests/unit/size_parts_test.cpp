// A case's sizes split into parts of about equal cost (size_parts.h).
#include "../../sim/cases/size_parts.h"

#include <doctest/doctest.h>

#include <algorithm>

using ringsim::split_sizes;

namespace {
constexpr std::uint64_t kMiB = 1ull << 20;
}

TEST_CASE("size parts: doubling sizes split in two put the largest alone against all the others") {
  std::vector<std::uint64_t> sizes{8};
  for (std::uint64_t bytes = kMiB; bytes <= 4096 * kMiB; bytes *= 2) sizes.push_back(bytes);
  const auto parts = split_sizes(sizes, 2);
  REQUIRE(parts.size() == 2);
  // 4 GiB costs 4096 MiB; 2048 + ... + 1 MiB = 4095 MiB, and 8 B the 1 MiB floor: 4096 MiB.
  CHECK(parts[0] == std::vector<std::uint64_t>{4096 * kMiB});
  CHECK(parts[1].size() == sizes.size() - 1);
  CHECK(parts[1].front() == 8);
  CHECK(std::is_sorted(parts[1].begin(), parts[1].end()));  // in the order SIZES lists them
}

TEST_CASE("size parts: equal sizes are dealt evenly, every size exactly once, never an empty part") {
  const std::vector<std::uint64_t> sizes{4, 8, 12, 16, 20};
  const auto parts = split_sizes(sizes, 2);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == std::vector<std::uint64_t>{4, 12, 20});  // each costs the 1 MiB floor: 3 and 2
  CHECK(parts[1] == std::vector<std::uint64_t>{8, 16});
  CHECK(split_sizes(sizes, 9).size() == 5);  // no more parts than sizes
  CHECK(split_sizes(sizes, 1) == std::vector<std::vector<std::uint64_t>>{sizes});
  CHECK(split_sizes(sizes, 0) == std::vector<std::vector<std::uint64_t>>{sizes});
}

TEST_CASE("size parts: three parts of 8, 4, 4, 2, 2 MiB cost 8, 6 and 6") {
  const std::vector<std::uint64_t> sizes{2 * kMiB, 2 * kMiB, 4 * kMiB, 4 * kMiB, 8 * kMiB};
  const auto parts = split_sizes(sizes, 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0] == std::vector<std::uint64_t>{8 * kMiB});
  CHECK(parts[1] == std::vector<std::uint64_t>{2 * kMiB, 4 * kMiB});
  CHECK(parts[2] == std::vector<std::uint64_t>{2 * kMiB, 4 * kMiB});
}
