#include "plan_zone.h"

#include <simgrid/s4u/Host.hpp>

#include <stdexcept>

namespace ringsim {

using simgrid::kernel::routing::NetPoint;
using simgrid::kernel::routing::Route;

PlanZone::PlanZone(const std::string& name, std::shared_ptr<const PlatformPlan> plan)
    : NetZoneImpl(name), plan_(std::move(plan)), links_(plan_->links().size(), {nullptr, nullptr, nullptr}),
      ports_(plan_->links().size()) {}

std::string PlanZone::port_name(const PlanLink& link, const std::string& member, bool leaving) {
  return link.name + "@" + member + (leaving ? "-out" : "-in");
}

void PlanZone::set_ports(std::size_t link, std::size_t member, const simgrid::s4u::Link* leaving, const simgrid::s4u::Link* arriving) {
  auto& ports = ports_[link];
  if (member >= ports.size()) ports.resize(member + 1, {nullptr, nullptr});
  ports[member] = {leaving->get_impl(), arriving == nullptr ? nullptr : arriving->get_impl()};
}

// A rack switch's copy is the source node's when leaving the source's rack, else the destination
// node's; the spine's is the source rack's.
PlanZone::LinkImpl* PlanZone::port(const Hop& hop, const Point& from, const Point& to) const {
  const auto& ports = ports_[hop.link];
  if (hop.link == plan_->spine_link() && plan_->has_spine()) return ports[from.rack][0];
  LinkImpl* link = hop.link == plan_->racks()[from.rack].switch_link ? ports[from.host.node][0] : ports[to.host.node][1];
  if (link == nullptr) throw std::logic_error("platform zone: a route crosses a switch port the zone did not declare");
  return link;
}

void PlanZone::set_link(std::size_t index, const simgrid::s4u::Link* link) { links_[index][0] = link->get_impl(); }

void PlanZone::set_split_link(std::size_t index, const simgrid::s4u::SplitDuplexLink* link) {
  links_[index][1] = link->get_link_up()->get_impl();
  links_[index][2] = link->get_link_down()->get_impl();
}

void PlanZone::add_plan_host(const simgrid::s4u::Host* host, HostRef ref) {
  const std::size_t id = host->get_netpoint()->id();
  if (id >= points_.size()) points_.resize(id + 1);
  points_[id].host = ref;
}

PlanZone::Part PlanZone::part(const Hops& path, const Hops& latency_order) {
  Part assembled{static_cast<std::uint32_t>(link_pool_.size()), static_cast<std::uint32_t>(path.size()),
                 static_cast<std::uint32_t>(latency_pool_.size()), static_cast<std::uint32_t>(latency_order.size())};
  for (const Hop& hop : path) {
    LinkImpl* link = links_[hop.link][static_cast<std::size_t>(hop.crossing)];
    if (link == nullptr) throw std::logic_error("platform zone: a route crosses a link the zone did not declare");
    link_pool_.push_back(link);
  }
  for (const Hop& hop : latency_order) latency_pool_.push_back(plan_->links()[hop.link].spec.latency_s);
  return assembled;
}

void PlanZone::assemble() {
  const PlatformPlan& plan = *plan_;
  std::vector<std::size_t> first_pair(plan.nodes().size());
  for (std::size_t n = 0; n < plan.nodes().size(); ++n) {
    const int gpus = static_cast<int>(plan.nodes()[n].hosts.size());
    first_pair[n] = node_pairs_.size();
    for (int a = 0; a < gpus; ++a)
      for (int b = 0; b < gpus; ++b)
        node_pairs_.push_back(a == b ? Part{} : part(plan.gpu_to_gpu(n, a, b), plan.gpu_to_gpu(n, a, b)));
  }
  for (Point& point : points_) {
    const PlanNode& node = plan.nodes()[point.host.node];
    point.rack = node.rack;
    point.pairs = first_pair[point.host.node];
    point.gpus = node.hosts.size();
    const Hops up = plan.gpu_to_router(point.host.node, point.host.gpu), down = plan.router_to_gpu(point.host.node, point.host.gpu);
    point.to_router = part(up, up);
    point.from_router = part(down, down);
  }
  rack_middle_.resize(plan.racks().size());
  rack_is_star_.resize(plan.racks().size());
  for (std::size_t r = 0; r < plan.racks().size(); ++r) {
    rack_is_star_[r] = plan.rack_is_star(r) ? 1 : 0;
    if (rack_is_star_[r] != 0 && plan.racks()[r].nodes.size() > 1) {
      const Hops between = plan.rack_route(r, 0, 1);
      rack_middle_[r] = part(between, between);
    }
  }
  node_leaving_.resize(plan.nodes().size());
  for (std::size_t n = 0; n < plan.nodes().size(); ++n) {
    const std::size_t rack = plan.nodes()[n].rack, switch_link = plan.racks()[rack].switch_link;
    if (rack_is_star_[rack] == 0 || plan.racks()[rack].nodes.size() < 2 || ports_[switch_link].size() <= n) continue;
    const Part& middle = rack_middle_[rack];
    if (middle.links != 1 || link_pool_[middle.first_link] != links_[switch_link][0])
      throw std::logic_error("platform zone: a star rack's nodes meet elsewhere than at its switch");
    node_leaving_[n] = {static_cast<std::uint32_t>(link_pool_.size()), 1, middle.first_latency, middle.latencies};
    link_pool_.push_back(ports_[switch_link][n][0]);
  }
}

void PlanZone::append(const Part& part, Route* route) const {
  const auto first = link_pool_.begin() + part.first_link;
  route->link_list_.insert(route->link_list_.end(), first, first + part.links);
}

void PlanZone::add_latency(const Part& part, double* latency) const {
  if (latency == nullptr) return;
  for (std::uint32_t i = 0; i < part.latencies; ++i) *latency += latency_pool_[part.first_latency + i];
}

void PlanZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* route, double* latency) {
  const Point& from = points_[src->id()];
  const Point& to = points_[dst->id()];
  if (from.host.node == to.host.node) {
    if (from.host.gpu == to.host.gpu) return;  // no route from a host to itself, as in a Full zone
    const Part& between = node_pairs_[from.pairs + static_cast<std::size_t>(from.host.gpu) * from.gpus + static_cast<std::size_t>(to.host.gpu)];
    append(between, route);
    add_latency(between, latency);
    return;
  }
  if (from.rack == to.rack && rack_is_star_[from.rack] != 0) {
    // Within a star rack SimGrid adds the rack's links first, then the source's, then the destination's.
    const Part& leaving = node_leaving_[from.host.node];
    const Part& middle = leaving.links != 0 ? leaving : rack_middle_[from.rack];
    route->link_list_.reserve(route->link_list_.size() + from.to_router.links + middle.links + to.from_router.links);
    append(from.to_router, route);
    append(middle, route);
    append(to.from_router, route);
    add_latency(middle, latency);
    add_latency(from.to_router, latency);
    add_latency(to.from_router, latency);
    return;
  }
  // Across racks, or in a rack whose switch carries a background load: assembled on demand.
  const PlatformPlan& plan = *plan_;
  for (const Hop& hop : plan.route(from.host, to.host))
    route->link_list_.push_back(ports_[hop.link].empty() ? links_[hop.link][static_cast<std::size_t>(hop.crossing)] : port(hop, from, to));
  if (latency != nullptr) *latency += plan.route_latency(from.host, to.host);
}

}  // namespace ringsim
