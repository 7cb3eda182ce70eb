#include "topology_graph.h"

#include "../common/input_error.h"
#include "../platform/cluster_layout.h"
#include "../platform/platform_plan.h"

// Under -fsanitize, GCC 12 reports a false -Wmaybe-uninitialized in Boost.Graph's named_graph.hpp
// (a boost::optional); the suppression covers Boost's own lines only.
// (clang has no such warning group.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <fmt/format.h>
#include <iterator>
#include <unordered_map>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace ringsim {
namespace {

struct Vertex {
  std::string name;
};

struct Edge {
  std::string link;       // empty: a hop that crosses no SimGrid link
  std::string up_end;     // on split links, the vertex whose traffic away from it is "up"
  double weight = 1;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Edge>;
using VertexId = Graph::vertex_descriptor;


}  // namespace

struct TopologyRoutes::Impl {
  std::string topology_name;
  Graph graph;
  std::map<std::string, VertexId> vertex;
  std::unordered_map<std::string, LinkProperties> links;
  std::map<LinkUse, double> background_fraction;
  std::unordered_map<std::string, Route> routes;  // SimGrid's, keyed "from\nto"

  VertexId add_vertex(const std::string& name) {
    auto [it, added] = vertex.try_emplace(name, 0);
    if (added) it->second = boost::add_vertex(Vertex{name}, graph);
    return it->second;
  }

  // A compact topology: routes, links and their roles from the platform plan, in O(hops) per route.
  std::unique_ptr<PlatformPlan> plan;

  void build(const Topology& topology, const PlatformModel& model) {
    topology_name = topology.name;
    plan = std::make_unique<PlatformPlan>(topology, model);
    const auto& plan_links = plan->links();
    links.reserve(plan_links.size());
    for (const PlanLink& link : plan_links) {
      if (link.role == LinkRole::background) continue;  // the analysis deducts the load from the link instead
      links.emplace(link.name, LinkProperties{link.spec.bandwidth_Bps, link.spec.latency_s, link.contended, link.split});
      for (const PlanLink::Companion& companion : link.companions)
        background_fraction[{link.name, direction_name(companion.loaded)}] = companion.fraction;
    }
  }

  static std::string direction_name(Crossing crossing) {
    return crossing == Crossing::up ? "up" : crossing == Crossing::down ? "down" : "shared";
  }

  Route plan_route(const std::string& from_host, const std::string& to_host) const {
    const HostRef* from = plan->find_host(from_host);
    const HostRef* to = plan->find_host(to_host);
    if (from == nullptr || to == nullptr)
      throw InputError(fmt::format("topology {}: no host {}", topology_name, from == nullptr ? from_host : to_host));
    Route route;
    const Hops hops = plan->route(*from, *to);
    route.hops.reserve(hops.size());
    for (const Hop& hop : hops) {
      const PlanLink& link = plan->links()[hop.link];
      if (link.role != LinkRole::background) route.hops.push_back({link.name, direction_name(hop.crossing)});
    }
    // Summed from the destination back, as the analysis always has (the last bits of a sum depend on its order).
    for (auto hop = route.hops.rbegin(); hop != route.hops.rend(); ++hop) route.latency_s += links.at(hop->link).latency_s;
    return route;
  }

  // The graph of a compact topology, for --dot: every GPU, each node's bus or NVSwitch, each NIC's port
  // and uplink end, each rack's switch, and with several racks each rack's spine port and the spine.
  void build_graph() {
    const Topology& topology = plan->topology();
    auto connect = [&](const std::string& a, const std::string& b, const std::string& link) {
      const bool split = !link.empty() && links.at(link).split;
      boost::add_edge(add_vertex(a), add_vertex(b), Edge{link, split ? a : "", 1}, graph);
    };
    const auto& stack = plan->model().process_stack;
    for (const RackSpec& rack : topology.racks) {
      const std::string switch_vertex = rack.name + "-switch";
      for (const NodeSpec& node : rack.nodes) {
        const std::string fabric =
            node.name + (!node.intra_ports ? "-bus" : node.intra_kind == IntraKind::nvlink ? "-nvswitch" : "-fabric");
        for (int k = 0; k < node.nics; ++k) {
          const std::string nic = nic_link_name(node, k), port = nic + "-port", end = nic + "-end";
          connect(port, end, nic);
          connect(end, switch_vertex, switch_link_name(rack));
        }
        for (int g = 0; g < node.gpus; ++g) {
          const std::string host = host_name(node, g);
          connect(host, fabric, node.intra_ports ? intra_port_name(node, g) : intra_link_name(node));
          connect(host, nic_link_name(node, nic_of_gpu(node, g)) + "-port", stack ? host + "-stack" : "");
        }
      }
      if (topology.spine) {
        connect(switch_vertex, rack.name + "-spine-port", uplink_name(rack));
        connect(rack.name + "-spine-port", kSpineLinkName, kSpineLinkName);
      }
    }
  }

  // A hand-written platform: SimGrid's routes ("node0-nic_UP" is link node0-nic crossed up).
  const simgrid::s4u::Engine* engine = nullptr;

  Route simgrid_route(const std::string& from_host, const std::string& to_host) {
    const auto* from = engine->host_by_name_or_null(from_host);
    const auto* to = engine->host_by_name_or_null(to_host);
    if (from == nullptr || to == nullptr)
      throw InputError(fmt::format("platform {}: no host {}", topology_name, from == nullptr ? from_host : to_host));
    std::vector<simgrid::s4u::Link*> hops;
    double latency = 0;
    try {
      from->route_to(to, hops, &latency);
    } catch (const std::exception& e) {
      throw InputError(fmt::format("platform {}: no route from {} to {}: {}", topology_name, from_host, to_host, e.what()));
    }
    Route route;
    route.latency_s = latency;
    std::string previous = from_host;
    for (const simgrid::s4u::Link* hop : hops) {
      std::string name = hop->get_name(), direction = "shared";
      for (const auto& [suffix, dir] : {std::pair{"_UP", "up"}, std::pair{"_DOWN", "down"}})
        if (name.ends_with(suffix) && hop->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::SHARED &&
            name.size() > std::string_view(suffix).size())
          name.resize(name.size() - std::string_view(suffix).size()), direction = dir;
      const bool fatpipe = hop->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE;
      if (!(hop->get_bandwidth() > 0)) throw InputError(fmt::format("platform {}: link {} has no bandwidth", topology_name, name));
      auto [it, added] = links.try_emplace(name, LinkProperties{hop->get_bandwidth(), hop->get_latency(), !fatpipe, direction != "shared"});
      if (!added && direction != "shared") it->second.split = true;
      route.hops.push_back({name, direction});
      connect_vertices(previous, name);
      previous = name;
    }
    connect_vertices(previous, to_host);
    return route;
  }

  void connect_vertices(const std::string& a, const std::string& b) {
    const VertexId u = add_vertex(a), v = add_vertex(b);
    if (!boost::edge(u, v, graph).second) boost::add_edge(u, v, Edge{"", "", 1}, graph);
  }

  static std::string route_key(const std::string& from_host, const std::string& to_host) { return from_host + '\n' + to_host; }

  void build(const std::filesystem::path& file) {
    topology_name = file.string();
    engine = &simgrid_platform(file);
    const auto hosts = engine->get_all_hosts();
    if (hosts.empty()) throw InputError(fmt::format("{}: the platform declares no host", file.string()));
    const std::string first = hosts.front()->get_name();
    for (const auto* host : hosts) {
      routes.emplace(route_key(first, host->get_name()), simgrid_route(first, host->get_name()));
      routes.emplace(route_key(host->get_name(), first), simgrid_route(host->get_name(), first));
    }
    std::vector<int> component(boost::num_vertices(graph));
    if (boost::connected_components(graph, component.data()) > 1)
      throw InputError(fmt::format("{}: not every host reaches every other", file.string()));
  }

  Route find_route(const std::string& from_host, const std::string& to_host) {
    return engine != nullptr ? simgrid_route(from_host, to_host) : plan_route(from_host, to_host);
  }
};

TopologyRoutes::TopologyRoutes(const Topology& topology, const PlatformModel& model) : impl_(std::make_unique<Impl>()) {
  impl_->build(topology, model);
}

TopologyRoutes::TopologyRoutes(const std::filesystem::path& simgrid_xml) : impl_(std::make_unique<Impl>()) {
  impl_->build(simgrid_xml);
}

TopologyRoutes::~TopologyRoutes() = default;

Route TopologyRoutes::route(const std::string& from_host, const std::string& to_host) {
  if (impl_->plan) return impl_->plan_route(from_host, to_host);  // O(hops): nothing to keep
  const std::string key = Impl::route_key(from_host, to_host);
  auto it = impl_->routes.find(key);
  if (it == impl_->routes.end()) it = impl_->routes.emplace(key, impl_->find_route(from_host, to_host)).first;
  return it->second;
}

const LinkProperties& TopologyRoutes::link(const std::string& name) const { return impl_->links.at(name); }

double TopologyRoutes::bandwidth_of(const LinkUse& use) const {
  auto loaded = impl_->background_fraction.find(use);
  const double left = loaded == impl_->background_fraction.end() ? 1 : 1 - loaded->second;
  return impl_->links.at(use.link).bandwidth_Bps * left;
}

double TopologyRoutes::slowest_speed_flops(const std::vector<std::string>& hosts) const {
  auto speed_of = [&](const std::string& host) {
    if (impl_->engine == nullptr) {
      const HostRef* found = impl_->plan->find_host(host);
      if (found == nullptr) throw InputError(fmt::format("topology {}: no host {}", impl_->topology_name, host));
      return impl_->plan->nodes()[found->node].spec->gpu_speed_flops;
    }
    const auto* found = impl_->engine->host_by_name_or_null(host);
    if (found == nullptr) throw InputError(fmt::format("platform {}: no host {}", impl_->topology_name, host));
    return found->get_speed();
  };
  double slowest = speed_of(hosts.front());
  for (const std::string& host : hosts) slowest = std::min(slowest, speed_of(host));
  return slowest;
}

std::string TopologyRoutes::dot(const std::string& title) const {
  if (impl_->plan && boost::num_vertices(impl_->graph) == 0) impl_->build_graph();
  const Graph& graph = impl_->graph;
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "graph \"{}\" {{\n  node [shape=box, fontsize=10];\n", title);
  for (const auto& [name, id] : impl_->vertex)
    fmt::format_to(it, "  \"{}\" [shape={}];\n", name,
                   name.find("-gpu") != std::string::npos && name.find("-port") == std::string::npos ? "box"
                   : name.ends_with("-switch") || name == kSpineLinkName || name.ends_with("-nvswitch") || name.ends_with("-fabric") ? "octagon"
                                                                                                        : "ellipse");
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    const Edge& edge = graph[*e];
    const std::string label =
        edge.link.empty() ? "" : fmt::format("{}\\n{:g} Gbit/s", edge.link, impl_->links.at(edge.link).bandwidth_Bps * 8 / 1e9);
    fmt::format_to(it, "  \"{}\" -- \"{}\" [label=\"{}\", fontsize=8];\n", graph[boost::source(*e, graph)].name,
                   graph[boost::target(*e, graph)].name, label);
  }
  fmt::format_to(it, "}}\n");
  return fmt::to_string(out);
}

RingEmbedding embed_ring(TopologyRoutes& routes, const std::vector<std::string>& hosts) {
  RingEmbedding ring;
  const std::size_t n = hosts.size();
  ring.routes.reserve(n);
  ring.route_latency_s.reserve(n);
  for (std::size_t r = 0; r < n; ++r) {
    Route route = routes.route(hosts[r], hosts[(r + 1) % n]);
    for (const LinkUse& use : route.hops) {
      if (++ring.ring_edges[use] == 1) ring.bandwidth[use] = routes.bandwidth_of(use);
      ring.links.try_emplace(use.link, routes.link(use.link));
    }
    ring.routes.push_back(std::move(route.hops));
    ring.route_latency_s.push_back(route.latency_s);
  }
  return ring;
}

RingEmbedding embed_ring(const Topology& topology, const PlatformModel& model, const std::vector<std::string>& hosts) {
  TopologyRoutes routes(topology, model);
  return embed_ring(routes, hosts);
}

RingEmbedding embed_ring(const Topology& topology, const std::optional<ProcessStack>& stack,
                         const std::vector<std::string>& hosts) {
  return embed_ring(topology, PlatformModel{stack, false, {}}, hosts);
}

std::unique_ptr<TopologyRoutes> routes_under_model(const Topology& topology, const PlatformModel& model,
                                                   const std::string& where) {
  try {
    return std::make_unique<TopologyRoutes>(topology, model);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: model: {}", where, e.what()));
  }
}

}  // namespace ringsim
