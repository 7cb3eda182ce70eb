#include "candidate_screening.h"

#include "../cases/size_parts.h"

#include <algorithm>

namespace ringsim {

namespace {

// COUNT of SORTED spread evenly by rank, the first and the last included: rank i * (n - 1) / (count - 1),
// rounded (COUNT >= 2, SORTED longer than it).
std::vector<std::uint64_t> spread_by_rank(const std::vector<std::uint64_t>& sorted, std::size_t count) {
  std::vector<std::uint64_t> spread;
  const std::size_t n = sorted.size();
  for (std::size_t i = 0; i < count; ++i) spread.push_back(sorted[(i * (n - 1) + (count - 1) / 2) / (count - 1)]);
  return spread;
}

}  // namespace

std::vector<std::uint64_t> diagnosis_sizes(const std::vector<std::uint64_t>& sizes, std::uint64_t min_bytes) {
  std::vector<std::uint64_t> judged;
  for (std::uint64_t bytes : sizes)
    if (bytes >= min_bytes) judged.push_back(bytes);
  if (judged.size() <= kDiagnosisSizes) return sizes;
  std::sort(judged.begin(), judged.end());
  return spread_by_rank(judged, kDiagnosisSizes);
}

std::vector<std::uint64_t> screening_sizes(const std::vector<std::uint64_t>& sizes, std::uint64_t min_bytes) {
  const auto cost = [](std::uint64_t bytes) { return static_cast<double>(std::max(bytes, kSizeCostFloorBytes)); };
  double total = 0;
  for (std::uint64_t bytes : sizes) total += cost(bytes);
  std::vector<std::uint64_t> ascending = sizes;
  std::sort(ascending.begin(), ascending.end());
  std::vector<std::uint64_t> screened;  // the judged sizes among the cheapest
  double spent = 0;
  std::size_t cheapest = 0;
  for (std::uint64_t bytes : ascending) {
    if (spent + cost(bytes) > kScreeningShare * total) break;
    spent += cost(bytes);
    ++cheapest;
    if (bytes >= min_bytes) screened.push_back(bytes);
  }
  if (screened.size() < kScreeningJudgedSizes || cheapest == sizes.size()) return sizes;
  if (screened.size() <= kScreeningSizes) return screened;
  return spread_by_rank(screened, kScreeningSizes);
}

std::vector<std::uint64_t> sizes_beyond(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint64_t>& subset) {
  std::vector<std::uint64_t> rest;
  for (std::uint64_t bytes : sizes)
    if (std::find(subset.begin(), subset.end(), bytes) == subset.end()) rest.push_back(bytes);
  return rest;
}

std::vector<std::size_t> screening_finalists(const std::vector<double>& screened, double best_other) {
  double best = best_other;
  for (double score : screened) best = std::min(best, score);
  std::vector<std::size_t> finalists;
  for (std::size_t i = 0; i < screened.size(); ++i)
    if (screened[i] <= best + kScreeningMargin) finalists.push_back(i);
  return finalists;
}

}  // namespace ringsim
