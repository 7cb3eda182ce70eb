#include "asked_sizes.h"

#include <algorithm>

namespace ringsim {

bool printed_below_asked(Collective collective) {
  return collective == Collective::all_gather || collective == Collective::reduce_scatter || collective == Collective::alltoall;
}

std::uint64_t judged_from_bytes(const GroupedTrace& grouped, std::string_view format, std::uint64_t min_bytes) {
  if (format != "nccl-tests" || !printed_below_asked(grouped.collective)) return min_bytes;
  int ranks = 0;
  for (const MeasuredCase& measured : grouped.cases) ranks = std::max(ranks, measured.placement.total_ranks());
  // The 16-byte blocks of every rank's piece: what the rounding can take off the size asked for.
  const std::uint64_t slack = static_cast<std::uint64_t>(ranks) * 16;
  for (std::uint64_t bytes : grouped.sizes)  // ascending
    if (bytes < min_bytes && bytes + slack > min_bytes) return bytes;
  return min_bytes;
}

}  // namespace ringsim
