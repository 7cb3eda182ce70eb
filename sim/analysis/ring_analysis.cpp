#include "ring_analysis.h"

#include <algorithm>
#include <fmt/format.h>

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

std::string describe_bottleneck(const RingEmbedding& ring, const Bottleneck& bottleneck, const std::vector<std::string>& hosts) {
  const LinkUse& use = bottleneck.use;
  const std::string rate = fmt::format("{} ring edge{} at {:g} Gbit/s", bottleneck.ring_edges, bottleneck.ring_edges == 1 ? "" : "s",
                                       bottleneck.bandwidth_Bps * 8 / 1e9);
  const LinkProperties& link = ring.links.at(use.link);
  const double full = link.bandwidth_Bps;
  const std::string cross_traffic =
      bottleneck.bandwidth_Bps < full * 0.999
          ? fmt::format("; background traffic leaves it {:.0f}% of its {:g} Gbit/s", 100 * bottleneck.bandwidth_Bps / full, full * 8 / 1e9)
          : "";
  if (link.role == LinkRole::stack)
    if (const auto rank = std::find(hosts.begin(), hosts.end(), link.host); rank != hosts.end())
      return fmt::format("the network stack of rank {} ({}), where {} ({}{})", rank - hosts.begin(), *rank,
                         bottleneck.ring_edges > 1 ? "its send and its receive compete" : "one transfer passes", rate, cross_traffic);
  const char* direction = use.direction == "up" ? "outbound" : use.direction == "down" ? "inbound" : "both directions";
  if (link.role == LinkRole::nic) return fmt::format("NIC {} ({}), carrying {}{}", use.link, direction, rate, cross_traffic);
  if (link.role == LinkRole::uplink || link.role == LinkRole::spine)
    return fmt::format("the rack uplink {} ({}), carrying {}{}", use.link, direction, rate, cross_traffic);
  if (link.role == LinkRole::rail_uplink || link.role == LinkRole::rail_spine)
    return fmt::format("the rail leaf's uplink {} ({}) to the spine, carrying {} between rails{}", use.link, direction, rate, cross_traffic);
  return fmt::format("link {} ({}), carrying {}{}", use.link, direction, rate, cross_traffic);
}

std::string bottleneck_mechanism(const RingEmbedding& ring, const Bottleneck& bottleneck, const std::vector<std::string>& hosts) {
  const LinkUse& use = bottleneck.use;
  const LinkProperties& link = ring.links.at(use.link);
  if (bottleneck.bandwidth_Bps < link.bandwidth_Bps * 0.999) return "cross traffic";
  if (link.role == LinkRole::stack && std::find(hosts.begin(), hosts.end(), link.host) != hosts.end())
    return bottleneck.ring_edges > 1 ? "per-process send/receive serialization" : "the per-process stack's bandwidth";
  if (link.role == LinkRole::uplink || link.role == LinkRole::spine) return "an oversubscribed uplink";
  if (link.role == LinkRole::rail_uplink || link.role == LinkRole::rail_spine) return "traffic between rails over an oversubscribed spine";
  if (link.role == LinkRole::nic) return bottleneck.ring_edges > 1 ? "NIC sharing" : "NIC bandwidth";
  return "link bandwidth";
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
