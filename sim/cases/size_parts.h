// A case's sizes split into parts that run as processes of their own at the same time, so that one
// case (all `validate` has) uses the cores there are. Splitting does not move a size's time: each
// timed call starts on an idle network after a barrier, and no state of one size's calls reaches the
// next (a test compares every size's time split and whole).
#pragma once

#include "../results/case_results.h"

#include <cstdint>
#include <vector>

namespace ringsim {

// What a size costs to simulate, in bytes: its own bytes, and at least kSizeCostFloorBytes (a call
// of a few bytes still runs every step of its algorithm once).
inline constexpr std::uint64_t kSizeCostFloorBytes = 1ull << 20;

// SIZES into at most PARTS non-empty parts of about equal cost, the largest sizes placed first each
// into the part that costs least so far; each part keeps the sizes in the order SIZES lists them.
// One part (all of SIZES) when PARTS <= 1.
std::vector<std::vector<std::uint64_t>> split_sizes(const std::vector<std::uint64_t>& sizes, std::size_t parts);

// A case's results from its parts, appended one part after another, put back in SIZES' order (a stable
// sort: the order split_sizes took them from).
void put_in_size_order(std::vector<SizeResult>& results, const std::vector<std::uint64_t>& sizes);

}  // namespace ringsim
