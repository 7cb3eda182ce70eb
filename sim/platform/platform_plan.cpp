#include "platform_plan.h"

#include "../common/input_error.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

std::vector<Crossing> loaded_crossings(const BackgroundLoad& load, bool split) {
  if (!split) return {Crossing::whole};
  if (load.direction == "up") return {Crossing::up};
  if (load.direction == "down") return {Crossing::down};
  return {Crossing::up, Crossing::down};
}

std::string companion_name(const std::string& link, Crossing loaded) {
  return fmt::format("{}-background-{}", link, loaded == Crossing::up ? "up" : loaded == Crossing::down ? "down" : "both");
}

// Appends HOPS to ROUTE, each link once (a star's route crosses its centre's links once).
void append_once(Hops& route, const Hops& hops) {
  for (const Hop& hop : hops)
    if (std::none_of(route.begin(), route.end(), [&](const Hop& seen) { return seen.link == hop.link; })) route.push_back(hop);
}

void append(Hops& route, const Hops& hops) { route.insert(route.end(), hops.begin(), hops.end()); }

}  // namespace

std::size_t PlatformPlan::add_link(std::string name, LinkSpec spec, LinkRole role, bool split, bool contended) {
  if (!(spec.bandwidth_Bps > 0)) throw InputError(fmt::format("topology {}: link {} has no bandwidth", topology_.name, name));
  links_.push_back({std::move(name), spec, role, split, contended, {}});
  return links_.size() - 1;
}

PlatformPlan::PlatformPlan(const Topology& topology, const PlatformModel& model) : topology_(topology), model_(model) {
  const auto& stack = model_.process_stack;
  std::size_t hosts = 0, links = 1, nodes = 0;
  for (const RackSpec& rack : topology_.racks) {
    links += 2, nodes += rack.nodes.size();
    for (const NodeSpec& node : rack.nodes) hosts += node.gpus, links += node.gpus * 3 + node.nics + 1 + pcie_switches(node);
  }
  if (topology_.rails) links += 2 * static_cast<std::size_t>(topology_.rails->rails) + 1;
  links_.reserve(links);
  nodes_.reserve(nodes);
  hosts_.reserve(hosts);
  if (topology_.spine) spine_link_ = add_link(kSpineLinkName, *topology_.spine, LinkRole::spine, false, !topology_.spine_nonblocking);
  for (const RackSpec& rack_spec : topology_.racks) {
    PlanRack rack{&rack_spec, {}, rack_spec.name + "-core", rack_spec.name + "-router", 0, 0};
    if (!topology_.rails)  // a rail fabric's NICs hang off its leaves instead
      rack.switch_link = add_link(switch_link_name(rack_spec), rack_spec.switch_link, LinkRole::switch_link, false,
                                  !rack_spec.switch_nonblocking);
    for (const NodeSpec& node_spec : rack_spec.nodes) {
      PlanNode node{&node_spec, racks_.size(), rack.nodes.size(), node_spec.name + "-router", {}, {}, {}, {}, {}, {}, {}};
      for (int g = 0; g < node_spec.gpus; ++g) {
        node.hosts.push_back(host_name(node_spec, g));
        hosts_.emplace(node.hosts.back(), HostRef{nodes_.size(), g});
      }
      if (node_spec.intra_ports) {
        for (int g = 0; g < node_spec.gpus; ++g)
          node.fabric.push_back(add_link(intra_port_name(node_spec, g), node_spec.intra, LinkRole::gpu_port, true));
      } else {
        node.fabric.push_back(add_link(intra_link_name(node_spec), node_spec.intra, LinkRole::bus, false));
      }
      for (int k = 0; k < pcie_switches(node_spec); ++k)
        node.pcie_switches.push_back(add_link(pcie_switch_name(node_spec, k), node_spec.pcie_switch, LinkRole::pcie_switch, true));
      if (stages_over_host_pcie(node_spec))
        for (int g = 0; g < node_spec.gpus; ++g)
          node.host_pcie.push_back(add_link(host_pcie_name(node_spec, g), node_spec.host_pcie, LinkRole::host_pcie, true));
      for (int k = 0; k < node_spec.nics; ++k)
        node.nics.push_back(add_link(nic_link_name(node_spec, k), node_spec.nic, LinkRole::nic, !model_.nic_half_duplex));
      if (stack)
        for (int g = 0; g < node_spec.gpus; ++g)
          node.stacks.push_back(add_link(node.hosts[g] + "-stack",
                                         LinkSpec{node_spec.nic.bandwidth_Bps * stack->nic_ratio, stack->latency_s},
                                         LinkRole::stack, !stack->shared));
      node.declared = node.fabric;
      node.declared.insert(node.declared.end(), node.pcie_switches.begin(), node.pcie_switches.end());
      node.declared.insert(node.declared.end(), node.host_pcie.begin(), node.host_pcie.end());
      node.declared.insert(node.declared.end(), node.nics.begin(), node.nics.end());
      node.declared.insert(node.declared.end(), node.stacks.begin(), node.stacks.end());
      rack.nodes.push_back(nodes_.size());
      nodes_.push_back(std::move(node));
    }
    if (topology_.spine) rack.uplink = add_link(uplink_name(rack_spec), rack_spec.uplink, LinkRole::uplink, true);
    racks_.push_back(std::move(rack));
  }
  if (const auto& rails = topology_.rails) {
    for (int k = 0; k < rails->rails; ++k)
      rail_leaves_.push_back(add_link(rail_leaf_name(k), rails->leaf, LinkRole::rail_leaf, false, !rails->leaf_nonblocking));
    for (int k = 0; k < rails->rails; ++k) rail_uplinks_.push_back(add_link(rail_uplink_name(k), rails->uplink, LinkRole::rail_uplink, true));
    rail_spine_ = add_link(kRailSpineLinkName, rails->spine, LinkRole::rail_spine, false, !rails->spine_nonblocking);
  }
  for (const BackgroundLoad& load : model_.background) add_background(load);
}

void PlatformPlan::add_background(const BackgroundLoad& load) {
  // A few loads over all links: no index by name is worth building for them.
  auto found = std::find_if(links_.begin(), links_.end(), [&](const PlanLink& link) { return link.name == load.link; });
  if (found == links_.end() || found->role == LinkRole::background)
    throw InputError(fmt::format("background load on \"{}\": topology {} has no such link (its links are named like "
                                 "node0-nic, node0-intra, rack0-switch, rack0-uplink, spine; see ringsim platform --dot)",
                                 load.link, topology_.name));
  const std::size_t loaded_link = static_cast<std::size_t>(found - links_.begin());
  const bool split = links_[loaded_link].split;
  if (!split && load.direction != "both")
    throw InputError(fmt::format("background load on \"{}\": the link is not split duplex, so its direction must be \"both\"",
                                 load.link));
  const LinkSpec left{links_[loaded_link].spec.bandwidth_Bps * (1 - load.fraction), 0};
  for (Crossing loaded : loaded_crossings(load, split)) {
    // Not add_link: a companion may legitimately have no bandwidth left (a fully loaded link).
    const std::size_t companion = links_.size();
    links_.push_back({companion_name(load.link, loaded), left, LinkRole::background, false, true, {}});
    links_[loaded_link].companions.push_back({loaded, companion, load.fraction});
  }
}

std::vector<std::size_t> PlatformPlan::rails_declared() const {
  std::vector<std::size_t> declared = rail_leaves_;
  declared.insert(declared.end(), rail_uplinks_.begin(), rail_uplinks_.end());
  if (has_rails()) declared.push_back(rail_spine_);
  return declared;
}

std::vector<std::size_t> PlatformPlan::spine_declared() const {
  std::vector<std::size_t> declared;
  for (const PlanRack& rack : racks_) declared.push_back(rack.uplink);
  declared.push_back(spine_link_);
  return declared;
}

Hops PlatformPlan::hop(std::size_t link, Crossing crossing) const {
  const PlanLink& crossed = links_[link];
  if (!crossed.split) crossing = Crossing::whole;
  Hops hops{{link, crossing}};
  for (const PlanLink::Companion& companion : crossed.companions)
    if (crossing == Crossing::whole || companion.loaded == crossing) hops.push_back({companion.link, Crossing::whole});
  return hops;
}

Hops PlatformPlan::gpu_to_gpu(std::size_t node_index, int a, int b) const {
  const PlanNode& node = nodes_[node_index];
  if (node.shared_bus()) {
    // Declared once per GPU pair (the lower GPU first), symmetrical: the way back is reversed.
    Hops hops = hop(node.fabric.front(), Crossing::whole);
    if (a > b) std::reverse(hops.begin(), hops.end());
    return hops;
  }
  // Ports: through the switch (NVSwitch) or staged in host memory, up one GPU's way and down the other's.
  Hops hops = fabric_way(node_index, a, Crossing::up);
  append(hops, fabric_way(node_index, b, Crossing::down));
  return hops;
}

Hops PlatformPlan::to_host(std::size_t node_index, int gpu, Crossing crossing) const {
  const PlanNode& node = nodes_[node_index];
  if (!node.host_pcie.empty()) return hop(node.host_pcie[gpu], crossing);
  return fabric_way(node_index, gpu, crossing);
}

Hops PlatformPlan::fabric_way(std::size_t node_index, int gpu, Crossing crossing) const {
  const PlanNode& node = nodes_[node_index];
  if (node.shared_bus()) return hop(node.fabric.front(), Crossing::whole);
  const int pcie_switch = pcie_switch_of_gpu(*node.spec, gpu);
  Hops hops = hop(node.fabric[gpu], crossing);
  if (pcie_switch >= 0) append(hops, hop(node.pcie_switches[pcie_switch], crossing));
  if (crossing == Crossing::down) std::reverse(hops.begin(), hops.end());
  return hops;
}

Hops PlatformPlan::gpu_to_router(std::size_t node_index, int gpu) const {
  const PlanNode& node = nodes_[node_index];
  Hops hops;
  if (model_.nccl_staging && !node.spec->gdr) hops = to_host(node_index, gpu, Crossing::up);
  if (!node.stacks.empty()) append(hops, hop(node.stacks[gpu], Crossing::up));
  append(hops, hop(node.nics[nic_of_gpu(*node.spec, gpu)], Crossing::up));
  return hops;
}

Hops PlatformPlan::router_to_gpu(std::size_t node_index, int gpu) const {
  const PlanNode& node = nodes_[node_index];
  Hops hops = hop(node.nics[nic_of_gpu(*node.spec, gpu)], Crossing::down);
  if (!node.stacks.empty()) append(hops, hop(node.stacks[gpu], Crossing::down));
  if (model_.nccl_staging && !node.spec->gdr) append(hops, to_host(node_index, gpu, Crossing::down));
  return hops;
}

Hops PlatformPlan::node_up(std::size_t node) const { return hop(racks_[nodes_[node].rack].switch_link, Crossing::whole); }
Hops PlatformPlan::node_down(std::size_t node) const { return node_up(node); }

bool PlatformPlan::rack_is_star(std::size_t rack) const {
  return !has_rails() && links_[racks_[rack].switch_link].companions.empty();
}

Hops PlatformPlan::rack_route(std::size_t rack, std::size_t a, std::size_t b) const {
  const std::size_t core = core_member(rack);
  auto declared = [&](std::size_t from, std::size_t to) {  // from < to
    const std::vector<std::size_t>& nodes = racks_[rack].nodes;
    return star_route(node_up(nodes[from]), to == core ? Hops{} : node_down(nodes[to]));
  };
  if (a < b) return declared(a, b);
  Hops back = declared(b, a);
  std::reverse(back.begin(), back.end());
  for (Hop& hop : back) hop.crossing = hop.crossing == Crossing::up ? Crossing::down : hop.crossing == Crossing::down ? Crossing::up : Crossing::whole;
  return back;
}

Hops PlatformPlan::rack_up(std::size_t rack) const {
  Hops hops = hop(racks_[rack].uplink, Crossing::up);
  append(hops, hop(spine_link_, Crossing::whole));
  return hops;
}

Hops PlatformPlan::rack_down(std::size_t rack) const {
  Hops hops = hop(spine_link_, Crossing::whole);
  append(hops, hop(racks_[rack].uplink, Crossing::down));
  return hops;
}

Hops PlatformPlan::star_route(const Hops& up, const Hops& down) {
  Hops route;
  append_once(route, up);
  append_once(route, down);
  return route;
}

int PlatformPlan::pxn_proxy(std::size_t node_index, int gpu, int nic) const {
  const NodeSpec& node = *nodes_[node_index].spec;
  if (!model_.nccl_pxn || node.intra_kind != IntraKind::nvlink) return -1;
  for (int g = 0; g < node.gpus; ++g)
    if (g != gpu && nic_beside_gpu(node, g) == nic) return g;
  return -1;
}

Hops PlatformPlan::rail_route(HostRef from, HostRef to) const {
  const int in = nic_of_gpu(*nodes_[to.node].spec, to.gpu);
  int rail = nic_of_gpu(*nodes_[from.node].spec, from.gpu);
  Hops route;
  if (const int proxy = rail == in ? -1 : pxn_proxy(from.node, from.gpu, in); proxy >= 0) {
    route = gpu_to_gpu(from.node, from.gpu, proxy);
    append(route, gpu_to_router(from.node, proxy));
    rail = in;
  } else {
    route = gpu_to_router(from.node, from.gpu);
  }
  append(route, hop(rail_leaves_[static_cast<std::size_t>(rail)], Crossing::whole));
  if (rail != in) {
    append(route, hop(rail_uplinks_[static_cast<std::size_t>(rail)], Crossing::up));
    append(route, hop(rail_spine_, Crossing::whole));
    append(route, hop(rail_uplinks_[static_cast<std::size_t>(in)], Crossing::down));
    append(route, hop(rail_leaves_[static_cast<std::size_t>(in)], Crossing::whole));
  }
  append(route, router_to_gpu(to.node, to.gpu));
  return route;
}

Hops PlatformPlan::route(HostRef from, HostRef to) const {
  if (from.node == to.node) return from.gpu == to.gpu ? Hops{} : gpu_to_gpu(from.node, from.gpu, to.gpu);
  if (has_rails()) return rail_route(from, to);
  Hops route = gpu_to_router(from.node, from.gpu);
  const std::size_t from_rack = nodes_[from.node].rack, to_rack = nodes_[to.node].rack;
  const std::size_t from_position = nodes_[from.node].position, to_position = nodes_[to.node].position;
  if (from_rack == to_rack) {
    append(route, rack_route(from_rack, from_position, to_position));
  } else {
    // Up to the source rack's core, across the spine, down from the destination rack's core.
    append(route, rack_route(from_rack, from_position, core_member(from_rack)));
    append(route, star_route(rack_up(from_rack), rack_down(to_rack)));
    append(route, rack_route(to_rack, core_member(to_rack), to_position));
  }
  append(route, router_to_gpu(to.node, to.gpu));
  return route;
}

Hops PlatformPlan::latency_order(HostRef from, HostRef to) const {
  if (from.node == to.node) return from.gpu == to.gpu ? Hops{} : gpu_to_gpu(from.node, from.gpu, to.gpu);
  if (has_rails()) return rail_route(from, to);  // one zone: SimGrid sums the route in path order
  const std::size_t from_rack = nodes_[from.node].rack, to_rack = nodes_[to.node].rack;
  const std::size_t from_position = nodes_[from.node].position, to_position = nodes_[to.node].position;
  Hops order;
  if (from_rack == to_rack) {
    order = rack_route(from_rack, from_position, to_position);
    append(order, gpu_to_router(from.node, from.gpu));
  } else {
    // The spine's star, then within the source rack (its star, then the node), then within the
    // destination rack.
    order = star_route(rack_up(from_rack), rack_down(to_rack));
    append(order, rack_route(from_rack, from_position, core_member(from_rack)));
    append(order, gpu_to_router(from.node, from.gpu));
    append(order, rack_route(to_rack, core_member(to_rack), to_position));
  }
  append(order, router_to_gpu(to.node, to.gpu));
  return order;
}

double PlatformPlan::route_latency(HostRef from, HostRef to) const {
  double latency = 0;
  for (const Hop& hop : latency_order(from, to)) latency += links_[hop.link].spec.latency_s;
  return latency;
}

const HostRef* PlatformPlan::find_host(std::string_view name) const {
  auto found = hosts_.find(std::string(name));
  return found == hosts_.end() ? nullptr : &found->second;
}

}  // namespace ringsim
