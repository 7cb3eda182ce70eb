#include "ring_order.h"

#include "ring_analysis.h"

#include <algorithm>
#include <map>

namespace ringsim {
namespace {

// Position of every host in the layout's listing: nodes in order, then their slots.
std::map<std::string, int> locality_rank(const ClusterLayout& layout) {
  std::map<std::string, int> rank;
  int next = 0;
  for (const NodeSlots& node : layout.nodes)
    for (const std::string& host : node.hosts) rank[host] = next++;
  return rank;
}

class RingSearch {
 public:
  RingSearch(TopologyRoutes& routes, std::uint64_t bytes, double gpu_speed)
      : routes_(routes), bytes_(bytes), gpu_speed_(gpu_speed) {}

  double cost(const std::vector<std::string>& hosts) {
    return predicted_ring_time(embed_ring(routes_, hosts), bytes_, gpu_speed_);
  }

  // Improves HOSTS in place until no reversal or swap helps (or the move budget is spent).
  OptimizedRingOrder improve(std::vector<std::string> hosts) {
    OptimizedRingOrder best{hosts, cost(hosts), 0};
    const std::size_t n = hosts.size();
    constexpr int kMaxMoves = 10000;
    // A change smaller than this is rounding, not an improvement (it would make the search wander).
    auto better = [&](double candidate) { return candidate < best.time_s * (1 - 1e-9); };
    for (bool improved = true; improved && best.moves < kMaxMoves;) {
      improved = false;
      // Rank 0 stays in place: a ring's rotations are the same ring.
      for (std::size_t i = 1; i + 1 < n && !improved; ++i)
        for (std::size_t j = i + 1; j < n && !improved; ++j) {
          std::vector<std::string> candidate = best.hosts;
          std::reverse(candidate.begin() + static_cast<long>(i), candidate.begin() + static_cast<long>(j) + 1);
          double time = cost(candidate);
          if (!better(time)) {
            candidate = best.hosts;
            std::swap(candidate[i], candidate[j]);
            time = cost(candidate);
          }
          if (better(time)) best = {std::move(candidate), time, best.moves + 1}, improved = true;
        }
    }
    return best;
  }

 private:
  TopologyRoutes& routes_;
  std::uint64_t bytes_;
  double gpu_speed_;
};

}  // namespace

OptimizedRingOrder optimize_ring_order(const ClusterLayout& layout, TopologyRoutes& routes,
                                       const std::vector<std::string>& hosts, std::uint64_t bytes,
                                       double gpu_speed_flops) {
  RingSearch search(routes, bytes, gpu_speed_flops);
  const auto rank = locality_rank(layout);
  std::vector<std::string> grouped = hosts;
  std::stable_sort(grouped.begin(), grouped.end(), [&](const auto& a, const auto& b) { return rank.at(a) < rank.at(b); });
  if (hosts.size() > kMaxSearchedRanks) {
    OptimizedRingOrder from_given{hosts, search.cost(hosts), 0}, from_grouped{grouped, search.cost(grouped), 0};
    return from_grouped.time_s < from_given.time_s ? from_grouped : from_given;
  }
  OptimizedRingOrder from_given = search.improve(hosts);
  OptimizedRingOrder from_grouped = search.improve(grouped);
  return from_grouped.time_s < from_given.time_s ? from_grouped : from_given;
}

}  // namespace ringsim
