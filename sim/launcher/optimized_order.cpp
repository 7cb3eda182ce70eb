#include "optimized_order.h"

#include "../../topologies/ring_order.h"

#include <algorithm>
#include <map>
#include <memory>

namespace ringsim {

Scenario with_optimized_orders(Scenario scenario, const Platform& platform) {
  std::unique_ptr<TopologyRoutes> routes;
  std::map<std::string, int> node_of_host;
  for (std::size_t k = 0; k < platform.layout.nodes.size(); ++k)
    for (const std::string& host : platform.layout.nodes[k].hosts) node_of_host[host] = static_cast<int>(k);

  for (PlacementSpec& placement : scenario.placements) {
    if (placement.order != RankOrder::optimized) continue;
    if (!routes)
      routes = platform.topology ? std::make_unique<TopologyRoutes>(scenario.model.shape(*platform.topology),
                                                                    scenario.model.platform_model())
                                 : std::make_unique<TopologyRoutes>(platform.source);
    PlacementSpec cyclic = placement;
    cyclic.order = RankOrder::cyclic;
    const std::vector<std::string> hosts = hosts_of_ranks(cyclic, platform.layout);
    double speed = routes->host_speed_flops(hosts.front());
    for (const std::string& host : hosts) speed = std::min(speed, routes->host_speed_flops(host));
    const OptimizedRingOrder best = optimize_ring_order(platform.layout, *routes, hosts, scenario.sizes.back(), speed);
    placement.optimized_nodes.clear();
    for (const std::string& host : best.hosts) placement.optimized_nodes.push_back(node_of_host.at(host));
  }
  return scenario;
}

}  // namespace ringsim
