#include "topology_graph.h"

#include "../sim/common/input_error.h"
#include "cluster_layout.h"

// Under -fsanitize, GCC 12 reports a false -Wmaybe-uninitialized in Boost.Graph's named_graph.hpp
// (a boost::optional); the suppression covers Boost's own lines only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>
#include <iterator>
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

// Routing policy as weights: traffic inside a node takes the node's fabric (2 hops of weight 1)
// rather than leaving through a NIC port (2 hops of weight 2); everything else is a tree.
constexpr double kFabricWeight = 1, kPortWeight = 2, kNetworkWeight = 10;

}  // namespace

struct TopologyRoutes::Impl {
  std::string topology_name;
  Graph graph;
  std::map<std::string, VertexId> vertex;
  std::map<std::string, LinkProperties> links;
  std::map<LinkUse, double> background_fraction;
  std::map<std::string, double> host_speed;  // compact topologies; SimGrid knows it for XML
  std::map<std::string, std::vector<VertexId>> trees;  // shortest-path predecessors per source host
  std::map<std::pair<std::string, std::string>, Route> routes;

  VertexId add_vertex(const std::string& name) {
    auto [it, added] = vertex.try_emplace(name, 0);
    if (added) it->second = boost::add_vertex(Vertex{name}, graph);
    return it->second;
  }
  void add_link(const std::string& id, const LinkSpec& spec, bool contended, bool split) {
    if (!(spec.bandwidth_Bps > 0)) throw InputError(fmt::format("topology {}: link {} has no bandwidth", topology_name, id));
    links[id] = {spec.bandwidth_Bps, spec.latency_s, contended, split};
  }
  void connect(const std::string& a, const std::string& b, const std::string& link, double weight) {
    const bool split = !link.empty() && links.at(link).split;
    boost::add_edge(add_vertex(a), add_vertex(b), Edge{link, split ? a : "", weight}, graph);
  }

  void build(const Topology& topology, const PlatformModel& model) {
    topology_name = topology.name;
    const auto& stack = model.process_stack;
    if (topology.spine) add_link(kSpineLinkName, *topology.spine, !topology.spine_nonblocking, false);
    for (const RackSpec& rack : topology.racks) {
      const std::string switch_vertex = rack.name + "-switch";
      add_link(switch_link_name(rack), rack.switch_link, !rack.switch_nonblocking, false);
      for (const NodeSpec& node : rack.nodes) {
        const bool nvlink = node.intra_kind == IntraKind::nvlink;
        const std::string fabric = node.name + (nvlink ? "-nvswitch" : "-bus");
        if (!nvlink) add_link(intra_link_name(node), node.intra, true, false);
        for (int k = 0; k < node.nics; ++k) {
          // port -(NIC)- uplink end -(switch link)- switch: a route between nodes crosses the switch link
          // twice in the graph, once in the platform (a route counts a link once).
          const std::string nic = nic_link_name(node, k), port = nic + "-port", end = nic + "-end";
          add_link(nic, node.nic, true, !model.nic_half_duplex);
          connect(port, end, nic, kNetworkWeight);
          connect(end, switch_vertex, switch_link_name(rack), kNetworkWeight);
        }
        for (int g = 0; g < node.gpus; ++g) {
          const std::string host = host_name(node, g);
          host_speed[host] = node.gpu_speed_flops;
          if (nvlink) add_link(nvlink_port_name(node, g), node.intra, true, true);
          connect(host, fabric, nvlink ? nvlink_port_name(node, g) : intra_link_name(node), kFabricWeight);
          std::string stack_link;
          if (stack) {
            stack_link = host + "-stack";
            add_link(stack_link, {node.nic.bandwidth_Bps * stack->nic_ratio, stack->latency_s}, true, !stack->shared);
          }
          connect(host, nic_link_name(node, nic_of_gpu(node, g)) + "-port", stack_link, kPortWeight);
        }
      }
      if (topology.spine) {
        add_link(uplink_name(rack), rack.uplink, true, true);
        connect(switch_vertex, rack.name + "-spine-port", uplink_name(rack), kNetworkWeight);
        connect(rack.name + "-spine-port", kSpineLinkName, kSpineLinkName, kNetworkWeight);
      }
    }
    std::vector<int> component(boost::num_vertices(graph));
    if (boost::connected_components(graph, component.data()) > 1)
      throw InputError(fmt::format("topology {}: not every GPU reaches every other", topology.name));

    for (const BackgroundLoad& load : model.background) {
      auto it = links.find(load.link);
      if (it == links.end())
        throw InputError(fmt::format("background load on \"{}\": topology {} has no such link (its links are named like "
                                     "node0-nic, node0-intra, rack0-switch, rack0-uplink, spine; see ringsim platform --dot)",
                                     load.link, topology.name));
      if (!it->second.split && load.direction != "both")
        throw InputError(fmt::format("background load on \"{}\": the link is not split duplex, so its direction must be \"both\"",
                                     load.link));
      const std::vector<std::string> directions =
          !it->second.split ? std::vector<std::string>{"shared"}
          : load.direction == "both" ? std::vector<std::string>{"up", "down"} : std::vector<std::string>{load.direction};
      for (const auto& direction : directions) background_fraction[{load.link, direction}] = load.fraction;
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

  void build(const std::filesystem::path& file) {
    topology_name = file.string();
    engine = &simgrid_platform(file);
    const auto hosts = engine->get_all_hosts();
    if (hosts.empty()) throw InputError(fmt::format("{}: the platform declares no host", file.string()));
    const std::string first = hosts.front()->get_name();
    for (const auto* host : hosts) {
      routes.emplace(std::make_pair(first, host->get_name()), simgrid_route(first, host->get_name()));
      routes.emplace(std::make_pair(host->get_name(), first), simgrid_route(host->get_name(), first));
    }
    std::vector<int> component(boost::num_vertices(graph));
    if (boost::connected_components(graph, component.data()) > 1)
      throw InputError(fmt::format("{}: not every host reaches every other", file.string()));
  }

  Route find_route(const std::string& from_host, const std::string& to_host) {
    if (engine != nullptr) return simgrid_route(from_host, to_host);
    auto host_vertex = [&](const std::string& host) {
      auto it = vertex.find(host);
      if (it == vertex.end()) throw InputError(fmt::format("topology {}: no host {}", topology_name, host));
      return it->second;
    };
    const VertexId from = host_vertex(from_host), to = host_vertex(to_host);
    auto& tree = trees[from_host];
    if (tree.empty()) {
      tree.resize(boost::num_vertices(graph));
      boost::dijkstra_shortest_paths(graph, from, boost::predecessor_map(tree.data()).weight_map(boost::get(&Edge::weight, graph)));
    }
    Route route;
    // Walk back from the destination; each edge is crossed from tree[v] to v.
    for (VertexId v = to; v != from; v = tree[v]) {
      const VertexId u = tree[v];
      const Edge& edge = graph[boost::edge(u, v, graph).first];
      if (edge.link.empty()) continue;
      const std::string direction = edge.up_end.empty() ? "shared" : graph[u].name == edge.up_end ? "up" : "down";
      const LinkUse use{edge.link, direction};
      if (std::find(route.hops.begin(), route.hops.end(), use) != route.hops.end()) continue;  // one link, two graph edges
      if (std::none_of(route.hops.begin(), route.hops.end(), [&](const LinkUse& seen) { return seen.link == use.link; }))
        route.latency_s += links.at(edge.link).latency_s;
      route.hops.insert(route.hops.begin(), use);
    }
    return route;
  }
};

TopologyRoutes::TopologyRoutes(const Topology& topology, const PlatformModel& model) : impl_(std::make_unique<Impl>()) {
  impl_->build(topology, model);
}

TopologyRoutes::TopologyRoutes(const std::filesystem::path& simgrid_xml) : impl_(std::make_unique<Impl>()) {
  impl_->build(simgrid_xml);
}

TopologyRoutes::~TopologyRoutes() = default;

const Route& TopologyRoutes::route(const std::string& from_host, const std::string& to_host) {
  const auto key = std::make_pair(from_host, to_host);
  auto it = impl_->routes.find(key);
  if (it == impl_->routes.end()) it = impl_->routes.emplace(key, impl_->find_route(from_host, to_host)).first;
  return it->second;
}

const std::map<std::string, LinkProperties>& TopologyRoutes::links() const { return impl_->links; }

double TopologyRoutes::bandwidth_of(const LinkUse& use) const {
  auto loaded = impl_->background_fraction.find(use);
  const double left = loaded == impl_->background_fraction.end() ? 1 : 1 - loaded->second;
  return impl_->links.at(use.link).bandwidth_Bps * left;
}

double TopologyRoutes::slowest_speed_flops(const std::vector<std::string>& hosts) const {
  auto speed_of = [&](const std::string& host) {
    if (impl_->engine == nullptr) return impl_->host_speed.at(host);
    const auto* found = impl_->engine->host_by_name_or_null(host);
    if (found == nullptr) throw InputError(fmt::format("platform {}: no host {}", impl_->topology_name, host));
    return found->get_speed();
  };
  double slowest = speed_of(hosts.front());
  for (const std::string& host : hosts) slowest = std::min(slowest, speed_of(host));
  return slowest;
}

std::string TopologyRoutes::dot(const std::string& title) const {
  const Graph& graph = impl_->graph;
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "graph \"{}\" {{\n  node [shape=box, fontsize=10];\n", title);
  for (const auto& [name, id] : impl_->vertex)
    fmt::format_to(it, "  \"{}\" [shape={}];\n", name,
                   name.find("-gpu") != std::string::npos && name.find("-port") == std::string::npos ? "box"
                   : name.ends_with("-switch") || name == kSpineLinkName || name.ends_with("-nvswitch") ? "octagon"
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
  for (std::size_t r = 0; r < n; ++r) {
    const Route& route = routes.route(hosts[r], hosts[(r + 1) % n]);
    for (const LinkUse& use : route.hops) {
      ++ring.ring_edges[use];
      ring.bandwidth[use] = routes.bandwidth_of(use);
    }
    ring.routes.push_back(route.hops);
    ring.route_latency_s.push_back(route.latency_s);
  }
  ring.links = routes.links();  // after the routes: a SimGrid platform's links are learnt from them
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
