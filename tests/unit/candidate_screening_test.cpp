// The sizes `validate --explain` screens its candidates at, and which pass (candidate_screening.h).
#include "../../sim/validate/candidate_screening.h"

#include <algorithm>
#include <doctest/doctest.h>

namespace ringsim {
namespace {

constexpr std::uint64_t kKiB = 1ull << 10, kMiB = 1ull << 20;

TEST_CASE("screening sizes: the smallest sizes costing at most a sixth of all, the largest left to the finalists") {
  // Every third size from 4 KiB to 128 MiB: costs 1, 1, 1, 2, 16 and 128 MiB (the 1 MiB floor below 1 MiB),
  // 149 in all; a sixth is 24.8, so up to 16 MiB (21 MiB) and not 128 MiB.
  const std::vector<std::uint64_t> sizes{4 * kKiB, 32 * kKiB, 256 * kKiB, 2 * kMiB, 16 * kMiB, 128 * kMiB};
  const std::vector<std::uint64_t> screened{4 * kKiB, 32 * kKiB, 256 * kKiB, 2 * kMiB, 16 * kMiB};
  CHECK(screening_sizes(sizes, 0) == screened);
  CHECK(sizes_beyond(sizes, screened) == std::vector<std::uint64_t>{128 * kMiB});
  // Sizes below --min-bytes are not judged: with 4 of the 5 below it, too few are left to screen at.
  CHECK(screening_sizes(sizes, 2 * kMiB) == sizes);
}

TEST_CASE("screening sizes: all of them when the cheap ones are too few to judge at or would be every size") {
  // 1, 1, 1, 64 and 128 MiB: a sixth of 195 is 32.5, which only the three smallest fit under.
  const std::vector<std::uint64_t> few{4 * kKiB, 64 * kKiB, kMiB, 64 * kMiB, 128 * kMiB};
  CHECK(screening_sizes(few, 0) == few);
  // Equal costs: a sixth of six sizes is one size.
  const std::vector<std::uint64_t> equal{4, 8, 12, 16, 20, 24};
  CHECK(screening_sizes(equal, 0) == equal);
}

TEST_CASE("screening sizes: nccl-tests' 30 doubling sizes, 8 B to 4 GiB, are screened at 8 of the 27 up to 512 MiB") {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes = 8; bytes <= 4096 * kMiB; bytes *= 2) sizes.push_back(bytes);
  REQUIRE(sizes.size() == 30);
  // 18 sizes up to 1 MiB at the 1 MiB floor, then 2 + 4 + ... + 4096 MiB: 8208 MiB, a sixth 1368 MiB.
  // Up to 512 MiB they cost 18 + 1022 = 1040 MiB; with 1 GiB 2064. Of those 27, ranks i * 26 / 7 rounded.
  const std::vector<std::uint64_t> screened{8, 128, 1 * kKiB, 16 * kKiB, 256 * kKiB, 4 * kMiB, 32 * kMiB, 512 * kMiB};
  CHECK(screening_sizes(sizes, 0) == screened);
  // From --min-bytes 1 MiB, the 10 judged ones of the 27 (1 MiB .. 512 MiB), spread: ranks i * 9 / 7 rounded.
  const std::vector<std::uint64_t> judged{kMiB, 2 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB, 64 * kMiB, 256 * kMiB, 512 * kMiB};
  CHECK(screening_sizes(sizes, kMiB) == judged);
}

TEST_CASE("diagnosis sizes: a log of 512 sizes is judged at 48 of them spread evenly, a log of 48 at every size") {
  std::vector<std::uint64_t> many;  // 1 MiB .. 512 MiB, 1 MiB apart (the HKBU ring logs)
  for (std::uint64_t k = 1; k <= 512; ++k) many.push_back(k * kMiB);
  const std::vector<std::uint64_t> judged = diagnosis_sizes(many, 0);
  REQUIRE(judged.size() == kDiagnosisSizes);
  CHECK(judged.front() == kMiB);
  CHECK(judged.back() == 512 * kMiB);
  // Rank i * 511 / 47, rounded: the second is rank 11 (12 MiB), the middle ones about 11 apart.
  CHECK(judged[1] == 12 * kMiB);
  CHECK(judged[24] == (24 * 511 + 23) / 47 * kMiB + kMiB);
  CHECK(std::is_sorted(judged.begin(), judged.end()));
  // Below --min-bytes nothing is judged, so nothing there is kept; 48 judged sizes are kept whole.
  const std::vector<std::uint64_t> from_465 = diagnosis_sizes(many, 465 * kMiB);
  CHECK(from_465 == many);
  CHECK(diagnosis_sizes(many, 464 * kMiB).size() == kDiagnosisSizes);
  CHECK(diagnosis_sizes(many, 464 * kMiB).front() == 464 * kMiB);
}

TEST_CASE("screening finalists: the candidates within 2 points of the best screened score, the hardware's and the per-call cost's included") {
  // 0.10 best among the candidates; 0.115 within 0.02 of it, 0.13 not.
  CHECK(screening_finalists({0.13, 0.10, 0.115}, 0.40) == std::vector<std::size_t>{1, 2});
  // The per-call cost fits at 0.05: only a candidate within 0.07 goes on.
  CHECK(screening_finalists({0.13, 0.06, 0.08}, 0.05) == std::vector<std::size_t>{1});
  CHECK(screening_finalists({0.13, 0.10}, 0.01).empty());
}

}  // namespace
}  // namespace ringsim
