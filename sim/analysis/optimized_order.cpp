#include "optimized_order.h"

#include "platform_routes.h"
#include "ring_order.h"

#include <algorithm>
#include <map>

namespace ringsim {

Scenario with_optimized_orders(Scenario scenario, const Platform& platform) {
  const bool searched = std::any_of(scenario.placements.begin(), scenario.placements.end(),
                                    [](const PlacementSpec& placement) { return placement.order == RankOrder::optimized; });
  if (!searched) return scenario;
  const auto routes = platform_routes(platform, scenario.model, scenario.file.string());
  return with_optimized_orders(std::move(scenario), platform.layout, *routes);
}

Scenario with_optimized_orders(Scenario scenario, const ClusterLayout& layout, TopologyRoutes& routes) {
  std::map<std::string, int> node_of_host;
  for (std::size_t k = 0; k < layout.nodes.size(); ++k)
    for (const std::string& host : layout.nodes[k].hosts) node_of_host[host] = static_cast<int>(k);

  for (PlacementSpec& placement : scenario.placements) {
    if (placement.order != RankOrder::optimized) continue;
    PlacementSpec cyclic = placement;
    cyclic.order = RankOrder::cyclic;
    const std::vector<std::string> hosts = hosts_of_ranks(cyclic, layout);
    const OptimizedRingOrder best =
        optimize_ring_order(layout, routes, hosts, scenario.sizes.back(), routes.slowest_speed_flops(hosts));
    placement.optimized_nodes.clear();
    for (const std::string& host : best.hosts) placement.optimized_nodes.push_back(node_of_host.at(host));
  }
  return scenario;
}

}  // namespace ringsim
