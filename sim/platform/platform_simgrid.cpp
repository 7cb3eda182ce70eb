#include "platform_simgrid.h"

#include "platform_plan.h"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace ringsim {
namespace {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

class SimgridBuilder {
 public:
  explicit SimgridBuilder(const PlatformPlan& plan) : plan_(plan), links_(plan.links().size(), nullptr) {}

  void build() {
    if (plan_.has_spine()) {
      sg4::NetZone* spine = sg4::create_star_zone(kSpineLinkName);
      std::vector<NetPoint*> gateways;
      for (std::size_t r = 0; r < plan_.racks().size(); ++r) gateways.push_back(rack_zone(r, spine));
      for (std::size_t link : plan_.spine_declared()) declare(spine, link);
      for (std::size_t r = 0; r < plan_.racks().size(); ++r) star_member(spine, rack_zones_[r]->get_netpoint(), gateways[r], plan_.rack_up(r), plan_.rack_down(r));
      spine->seal();
    } else {
      rack_zone(0, nullptr);
      rack_zones_[0]->seal();
    }
  }

 private:
  // A link and its background companions, created in the zone that declares them.
  void declare(sg4::NetZone* zone, std::size_t index) {
    const PlanLink& link = plan_.links()[index];
    if (link.split) {
      links_[index] = zone->create_split_duplex_link(link.name, link.spec.bandwidth_Bps)->set_latency(link.spec.latency_s)->seal();
    } else {
      links_[index] = zone->create_link(link.name, link.spec.bandwidth_Bps)
                          ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                          ->set_latency(link.spec.latency_s)
                          ->seal();
    }
    for (const PlanLink::Companion& companion : link.companions) declare(zone, companion.link);
  }

  std::vector<sg4::LinkInRoute> route(const Hops& hops) const {
    std::vector<sg4::LinkInRoute> route;
    for (const Hop& hop : hops) {
      using Direction = sg4::LinkInRoute::Direction;
      const Direction direction = hop.crossing == Crossing::up ? Direction::UP : hop.crossing == Crossing::down ? Direction::DOWN : Direction::NONE;
      route.emplace_back(links_[hop.link], direction);
    }
    return route;
  }

  void star_member(sg4::NetZone* star, NetPoint* member, NetPoint* gateway, const Hops& up, const Hops& down) {
    star->add_route(member, nullptr, gateway, nullptr, route(up), false);
    star->add_route(nullptr, member, nullptr, gateway, route(down), false);
  }

  struct NodeZone {
    NetPoint* zone;
    NetPoint* router;
  };

  NodeZone node_zone(std::size_t index, const sg4::NetZone* rack) {
    const PlanNode& node = plan_.nodes()[index];
    sg4::NetZone* zone = sg4::create_full_zone(node.spec->name);
    zone->set_parent(rack);
    std::vector<NetPoint*> hosts;
    for (const std::string& host : node.hosts) hosts.push_back(zone->create_host(host, node.spec->gpu_speed_flops)->seal()->get_netpoint());
    NetPoint* router = zone->create_router(node.router);
    for (std::size_t link : node.declared) declare(zone, link);
    const int gpus = static_cast<int>(node.hosts.size());
    const bool one_bus = node.fabric.size() == 1;
    for (int a = 0; a < gpus; ++a)
      for (int b = a + 1; b < gpus; ++b) {
        zone->add_route(hosts[a], hosts[b], nullptr, nullptr, route(plan_.gpu_to_gpu(index, a, b)), one_bus);
        if (!one_bus) zone->add_route(hosts[b], hosts[a], nullptr, nullptr, route(plan_.gpu_to_gpu(index, b, a)), false);
      }
    for (int g = 0; g < gpus; ++g) {
      zone->add_route(hosts[g], router, nullptr, nullptr, route(plan_.gpu_to_router(index, g)), false);
      zone->add_route(router, hosts[g], nullptr, nullptr, route(plan_.router_to_gpu(index, g)), false);
    }
    zone->seal();
    return {zone->get_netpoint(), router};
  }

  // Returns the rack's gateway router (under a spine).
  NetPoint* rack_zone(std::size_t index, const sg4::NetZone* spine) {
    const PlanRack& rack = plan_.racks()[index];
    const bool star = plan_.rack_is_star(index);
    sg4::NetZone* zone = star ? sg4::create_star_zone(rack.spec->name) : sg4::create_full_zone(rack.spec->name);
    if (spine != nullptr) zone->set_parent(spine);
    rack_zones_.push_back(zone);
    std::vector<NodeZone> node_zones;
    for (std::size_t node : rack.nodes) node_zones.push_back(node_zone(node, zone));
    sg4::NetZone* core = nullptr;
    NetPoint* gateway = nullptr;
    if (plan_.has_spine()) {
      core = sg4::create_full_zone(rack.core_zone);
      core->set_parent(zone);
      gateway = core->create_router(rack.router);
      core->seal();
    }
    declare(zone, rack.switch_link);
    if (star) {
      for (std::size_t i = 0; i < rack.nodes.size(); ++i) {
        const std::size_t node = rack.nodes[i];
        star_member(zone, node_zones[i].zone, node_zones[i].router, plan_.node_up(node), plan_.node_down(node));
      }
      if (core != nullptr) star_member(zone, core->get_netpoint(), gateway, {}, {});
    } else {
      // A background load on the switch: a route per pair, as in the XML (its way back is reversed).
      for (std::size_t a = 0; a < rack.nodes.size(); ++a) {
        for (std::size_t b = a + 1; b < rack.nodes.size(); ++b)
          zone->add_route(node_zones[a].zone, node_zones[b].zone, node_zones[a].router, node_zones[b].router,
                          route(plan_.rack_route(index, a, b)), true);
        if (core != nullptr)
          zone->add_route(node_zones[a].zone, core->get_netpoint(), node_zones[a].router, gateway,
                          route(plan_.rack_route(index, a, plan_.core_member(index))), true);
      }
    }
    if (spine != nullptr) zone->seal();
    return gateway;
  }

  const PlatformPlan& plan_;
  std::vector<const sg4::Link*> links_;
  std::vector<sg4::NetZone*> rack_zones_;
};

}  // namespace

void build_simgrid_platform(const PlatformPlan& plan) { SimgridBuilder(plan).build(); }

}  // namespace ringsim
