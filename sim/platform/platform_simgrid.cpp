#include "platform_simgrid.h"

#include "plan_zone.h"
#include "platform_plan.h"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace ringsim {
namespace {

namespace sg4 = simgrid::s4u;

// Creates the plan's hosts and links in one PlanZone, in the XML's document order: per rack, each
// node's hosts and links, then the rack's switch; then the uplinks and the spine (on a rail fabric:
// its leaves, their uplinks and its spine instead of the switch).
class SimgridBuilder {
 public:
  SimgridBuilder(std::shared_ptr<const PlatformPlan> plan, PlanZone& zone) : plan_(*plan), zone_(zone) {}

  void build() {
    for (std::size_t r = 0; r < plan_.racks().size(); ++r) {
      const PlanRack& rack = plan_.racks()[r];
      for (std::size_t node : rack.nodes) build_node(node);
      if (plan_.has_rails()) continue;  // its leaves and spine follow
      declare(rack.switch_link);
      if (PlanZone::gets_ports(plan_.links()[rack.switch_link]))
        for (std::size_t node : rack.nodes)
          declare_ports(rack.switch_link, node, plan_.nodes()[node].spec->name, plan_.racks().size() > 1);
    }
    for (std::size_t link : plan_.rails_declared()) declare(link);
    if (plan_.has_spine()) {
      for (std::size_t link : plan_.spine_declared()) declare(link);
      if (PlanZone::gets_ports(plan_.links()[plan_.spine_link()]))
        for (std::size_t r = 0; r < plan_.racks().size(); ++r)
          declare_ports(plan_.spine_link(), r, plan_.racks()[r].spec->name, false);
    }
    zone_.assemble();
    zone_.get_iface()->seal();
  }

 private:
  // A link and its background companions.
  void declare(std::size_t index) {
    const PlanLink& link = plan_.links()[index];
    sg4::NetZone* zone = zone_.get_iface();
    if (link.split) {
      sg4::SplitDuplexLink* created = zone->create_split_duplex_link(link.name, link.spec.bandwidth_Bps);
      created->set_latency(link.spec.latency_s)->seal();
      zone_.set_split_link(index, created);
    } else {
      zone_.set_link(index, create_shared(link.name, link.spec));
    }
    for (const PlanLink::Companion& companion : link.companions) declare(companion.link);
  }

  // The copies of a link that never limits a flow (PlanZone::gets_ports) for one member.
  void declare_ports(std::size_t index, std::size_t member, const std::string& member_name, bool arriving) {
    const PlanLink& link = plan_.links()[index];
    const sg4::Link* out = create_shared(PlanZone::port_name(link, member_name, true), link.spec);
    zone_.set_ports(index, member, out, arriving ? create_shared(PlanZone::port_name(link, member_name, false), link.spec) : nullptr);
  }

  const sg4::Link* create_shared(const std::string& name, const LinkSpec& spec) {
    return zone_.get_iface()
        ->create_link(name, spec.bandwidth_Bps)
        ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
        ->set_latency(spec.latency_s)
        ->seal();
  }

  void build_node(std::size_t index) {
    const PlanNode& node = plan_.nodes()[index];
    for (std::size_t g = 0; g < node.hosts.size(); ++g)
      zone_.add_plan_host(zone_.get_iface()->create_host(node.hosts[g], node.spec->gpu_speed_flops)->seal(),
                          HostRef{index, static_cast<int>(g)});
    for (std::size_t link : node.declared) declare(link);
  }

  const PlatformPlan& plan_;
  PlanZone& zone_;
};

}  // namespace

void build_simgrid_platform(std::shared_ptr<const PlatformPlan> plan) {
  // SimGrid owns its zones and frees them with the engine.
  const std::string name = plan->has_spine() ? std::string(kSpineLinkName) : plan->racks().front().spec->name;
  auto* zone = new PlanZone(name, plan);
  SimgridBuilder(std::move(plan), *zone).build();
}

}  // namespace ringsim
