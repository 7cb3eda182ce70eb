// The ranking of a results JSON's cases (placement x order x algorithm) at one size, per number of
// ranks N and model variant: fastest first, with how much slower than the fastest each is and the
// ring's bottleneck each names. Shown as a table (terminal and page) and a plot of every case's time
// in rank order; the tables list the fastest and slowest few, a line summarizing the others.
#pragma once

#include "report_figures.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ringsim {

// Cases listed at each end of a group's ranking.
inline constexpr std::size_t kRankedAtEachEnd = 5;

struct RankedCase {
  const ResultRow* row = nullptr;
  std::string name;        // "4-3-1 cyclic ring"
  int position = 0;        // 1 = fastest; times within 0.1% of a position's first case share it
  double slowdown = 1;     // time / the group's fastest time
  std::string bottleneck;  // "" when not named
};

struct RankingGroup {
  std::string variant;  // "" without variants
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::vector<RankedCase> cases;  // every case of the group, fastest first
};

// "12.345 ms": a time as the tables show it.
std::string format_time(double seconds);

// The bottleneck a row's case names, or "" (not a ring, no topology given).
using BottleneckNamer = std::function<std::string(const ResultRow&)>;

// Groups of the rows at BYTES, by N then variant (in order of first appearance). Equal times keep the
// results' case order.
std::vector<RankingGroup> rank_cases(const ResultsDocument& results, std::uint64_t bytes, const BottleneckNamer& bottleneck_of);

// Indices into GROUP.cases that tables list: all when they are at most 2 x kRankedAtEachEnd, else the
// kRankedAtEachEnd fastest and the kRankedAtEachEnd slowest.
std::vector<std::size_t> listed_cases(const RankingGroup& group);

// Whether some group holds two placements (or rank orders): else there is nothing to rank but
// algorithms, which the other plots compare.
bool compares_placements(const std::vector<RankingGroup>& groups);

// The ranking as text for the terminal: a header, then per group a summary line and the listed cases.
std::string ranking_text(const std::vector<RankingGroup>& groups, const std::string& bottleneck_note);

// The report's section: the same tables, and a plot of every case's time in rank order, a panel per
// group, a series per algorithm. Left out, with the reason, when no group compares placements.
ReportSection ranking_section(const std::vector<RankingGroup>& groups, const std::string& bottleneck_note);

}  // namespace ringsim
