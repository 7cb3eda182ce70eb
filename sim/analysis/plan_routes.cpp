#include "plan_routes.h"

#include "../common/input_error.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

std::string direction_name(Crossing crossing) {
  return crossing == Crossing::up ? "up" : crossing == Crossing::down ? "down" : "shared";
}

}  // namespace

PlanRoutes::PlanRoutes(const Topology& topology, const PlatformModel& model) : plan_(topology, model) {
  const auto& plan_links = plan_.links();
  links_.reserve(plan_links.size());
  for (const PlanLink& link : plan_links) {
    if (link.role == LinkRole::background) continue;  // the analysis deducts the load from the link instead
    links_.emplace(link.name, LinkProperties{link.spec.bandwidth_Bps, link.spec.latency_s, link.contended, link.split, link.role, ""});
    for (const PlanLink::Companion& companion : link.companions)
      background_fraction_[{link.name, direction_name(companion.loaded)}] = companion.fraction;
  }
  for (const PlanNode& node : plan_.nodes())
    for (std::size_t g = 0; g < node.stacks.size(); ++g) links_.at(plan_links[node.stacks[g]].name).host = node.hosts[g];
}

const HostRef& PlanRoutes::host(const std::string& name) const {
  const HostRef* found = plan_.find_host(name);
  if (found == nullptr) throw InputError(fmt::format("topology {}: no host {}", plan_.topology().name, name));
  return *found;
}

Route PlanRoutes::route(const std::string& from_host, const std::string& to_host) {
  const HostRef& from = host(from_host);
  const HostRef& to = host(to_host);
  Route route;
  const Hops hops = plan_.route(from, to);
  route.hops.reserve(hops.size());
  for (const Hop& hop : hops) {
    const PlanLink& link = plan_.links()[hop.link];
    if (link.role != LinkRole::background) route.hops.push_back({link.name, direction_name(hop.crossing)});
  }
  // Summed from the destination back, as the analysis always has (the last bits of a sum depend on its order).
  for (auto hop = route.hops.rbegin(); hop != route.hops.rend(); ++hop) route.latency_s += links_.at(hop->link).latency_s;
  return route;
}

double PlanRoutes::speed_flops(const std::string& name) const { return plan_.nodes()[host(name).node].spec->gpu_speed_flops; }

const RouteGraph& PlanRoutes::graph() const {
  if (!graph_.empty()) return graph_;
  const auto& links = plan_.links();
  for (const PlanRack& rack : plan_.racks()) {
    const GraphVertex switch_vertex{rack.spec->name + "-switch", VertexShape::octagon};
    for (std::size_t n : rack.nodes) {
      const PlanNode& node = plan_.nodes()[n];
      const NodeSpec& spec = *node.spec;
      const GraphVertex fabric = !spec.intra_ports ? GraphVertex{spec.name + "-bus", VertexShape::ellipse}
                                 : spec.intra_kind == IntraKind::nvlink ? GraphVertex{spec.name + "-nvswitch", VertexShape::octagon}
                                                                        : GraphVertex{spec.name + "-fabric", VertexShape::octagon};
      for (std::size_t k = 0; k < node.nics.size(); ++k) {
        const std::string& name = links[node.nics[k]].name;
        const GraphVertex end{name + "-end", VertexShape::ellipse};
        graph_.add_edge({name + "-port", VertexShape::ellipse}, end, name);
        // On a rail fabric NIC k hangs off rail k's leaf.
        const std::string& hub = plan_.has_rails() ? links[plan_.rails_declared()[k]].name : links[rack.switch_link].name;
        graph_.add_edge(end, plan_.has_rails() ? GraphVertex{hub, VertexShape::octagon} : switch_vertex, hub);
      }
      for (int g = 0; g < spec.gpus; ++g) {
        const GraphVertex gpu{node.hosts[g], VertexShape::box};
        graph_.add_edge(gpu, fabric, links[node.fabric[spec.intra_ports ? g : 0]].name);
        graph_.add_edge(gpu, {links[node.nics[nic_of_gpu(spec, g)]].name + "-port", VertexShape::ellipse},
                        node.stacks.empty() ? "" : links[node.stacks[g]].name);
      }
    }
    if (plan_.has_rails()) add_rail_spine();
    if (plan_.has_spine()) {
      const GraphVertex spine_port{rack.spec->name + "-spine-port", VertexShape::ellipse};
      graph_.add_edge(switch_vertex, spine_port, links[rack.uplink].name);
      graph_.add_edge(spine_port, {links[plan_.spine_link()].name, VertexShape::octagon}, links[plan_.spine_link()].name);
    }
  }
  return graph_;
}

void PlanRoutes::add_rail_spine() const {
  const auto& links = plan_.links();
  const std::vector<std::size_t> declared = plan_.rails_declared();  // leaves, uplinks, spine
  const std::size_t rails = (declared.size() - 1) / 2;
  const GraphVertex spine{links[declared.back()].name, VertexShape::octagon};
  for (std::size_t k = 0; k < rails; ++k) {
    const GraphVertex port{links[declared[rails + k]].name + "-end", VertexShape::ellipse};
    graph_.add_edge({links[declared[k]].name, VertexShape::octagon}, port, links[declared[rails + k]].name);
    graph_.add_edge(port, spine, spine.name);
  }
}

}  // namespace ringsim
