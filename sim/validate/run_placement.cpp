#include "run_placement.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

std::string RunPlacement::describe() const {
  return fmt::format("{}: {} ranks on {} hosts ({}, in order of first appearance)",
                     placement ? placement->label() : "no placement", ranks, hosts.size(), fmt::join(hosts, ", "));
}

RunPlacement placement_of_run(const MeasuredRun& run) {
  RunPlacement result;
  result.hosts = run.hosts();
  result.ranks = static_cast<int>(run.ranks.size());
  result.line = run.header_line;
  std::vector<int> host_of_rank, counts(result.hosts.size(), 0);
  for (const auto& rank : run.ranks) {
    const auto host = std::find(result.hosts.begin(), result.hosts.end(), rank.host) - result.hosts.begin();
    host_of_rank.push_back(static_cast<int>(host));
    ++counts[static_cast<std::size_t>(host)];
  }
  for (const RankOrder order : {RankOrder::block, RankOrder::cyclic}) {
    PlacementSpec candidate{counts, order};
    if (node_of_ranks(candidate) == host_of_rank) {
      result.placement = candidate;
      return result;
    }
  }
  // Block broke where a host's ranks stop being consecutive: name that rank for the message.
  for (std::size_t r = 1; r < host_of_rank.size(); ++r)
    if (host_of_rank[r] != host_of_rank[r - 1] &&
        std::find(host_of_rank.begin(), host_of_rank.begin() + static_cast<std::ptrdiff_t>(r), host_of_rank[r]) !=
            host_of_rank.begin() + static_cast<std::ptrdiff_t>(r)) {
      result.why_not = fmt::format("rank {} runs on {} again after rank {} on {}: the ranks follow neither block nor cyclic order",
                                   r, run.ranks[r].host, r - 1, run.ranks[r - 1].host);
      result.line = run.ranks[r].line;
      return result;
    }
  result.why_not = "the ranks follow neither block nor cyclic order";
  return result;
}

}  // namespace ringsim
