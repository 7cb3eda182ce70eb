#include "ring_analysis.h"

#include <algorithm>

namespace ringsim {

Bottleneck find_bottleneck(const RingEmbedding& ring) {
  Bottleneck worst;
  double worst_load = -1;
  for (const auto& [use, edges] : ring.ring_edges) {
    const LinkProperties& link = ring.links.at(use.link);
    if (!link.contended) continue;
    const double bandwidth = ring.bandwidth.at(use);
    const double load = edges / bandwidth;
    if (load > worst_load) worst_load = load, worst = {use, edges, bandwidth};
  }
  return worst;
}

double predicted_ring_time(const RingEmbedding& ring, std::uint64_t bytes, double gpu_speed_flops) {
  const std::size_t n = ring.routes.size();
  if (n < 2) return 0;
  const double chunk = static_cast<double>(bytes) / static_cast<double>(n);
  double step = 0;
  for (std::size_t e = 0; e < n; ++e) {
    double seconds_per_byte = 0;
    for (const LinkUse& use : ring.routes[e]) {
      const LinkProperties& link = ring.links.at(use.link);
      const int sharing = link.contended ? ring.ring_edges.at(use) : 1;
      seconds_per_byte = std::max(seconds_per_byte, sharing / ring.bandwidth.at(use));
    }
    step = std::max(step, ring.route_latency_s[e] + chunk * seconds_per_byte);
  }
  const double reductions = static_cast<double>(n - 1) * (chunk / sizeof(float)) / gpu_speed_flops;
  return 2.0 * static_cast<double>(n - 1) * step + reductions;
}

}  // namespace ringsim
