#include "topology_graph.h"

#include "../sim/common/input_error.h"

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

namespace ringsim {
namespace {

struct Vertex {
  std::string name;
};

struct Edge {
  std::string link;       // empty: a hop that crosses no SimGrid link
  bool split = false;     // split duplex: direction matters
  std::string up_end;     // on split links, the vertex whose traffic away from it is "up"
  double weight = 1;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Edge>;
using VertexId = Graph::vertex_descriptor;

// Routing policy as weights: intra-node traffic takes the bus (2 hops of weight 1) rather than
// leaving through the port (2 hops of weight 2); everything between nodes crosses the switch.
constexpr double kBusWeight = 1, kPortWeight = 2, kNicWeight = 10;

struct BuiltGraph {
  Graph graph;
  std::map<std::string, VertexId> vertex;
  std::map<std::string, LinkProperties> links;
};

BuiltGraph build(const Topology& topology, const std::optional<ProcessStack>& stack) {
  BuiltGraph built;
  auto vertex = [&](const std::string& name) {
    auto [it, added] = built.vertex.try_emplace(name, 0);
    if (added) it->second = boost::add_vertex(Vertex{name}, built.graph);
    return it->second;
  };
  auto link = [&](const std::string& id, const LinkSpec& spec, bool contended) {
    if (!(spec.bandwidth_Bps > 0)) throw InputError(fmt::format("topology {}: link {} has no bandwidth", topology.name, id));
    built.links[id] = {spec.bandwidth_Bps, spec.latency_s, contended};
  };
  for (const RackSpec& rack : topology.racks) {
    const std::string switch_name = rack.name + "-switch";
    link(switch_link_name(rack), rack.switch_link, !rack.switch_nonblocking);
    for (const NodeSpec& node : rack.nodes) {
      const std::string bus = node.name + "-bus", port = node.name + "-port";
      link(intra_link_name(node), node.intra, true);
      link(nic_link_name(node), node.nic, true);
      // port -(NIC)- uplink -(switch link)- switch: a route between nodes crosses the switch link twice
      // in the graph, once in the platform (embed_ring counts a link once per route).
      const std::string uplink = node.name + "-uplink";
      boost::add_edge(vertex(port), vertex(uplink), Edge{nic_link_name(node), true, port, kNicWeight}, built.graph);
      boost::add_edge(vertex(uplink), vertex(switch_name), Edge{switch_link_name(rack), false, "", kNicWeight}, built.graph);
      for (int g = 0; g < node.gpus; ++g) {
        const std::string host = host_name(node, g);
        boost::add_edge(vertex(host), vertex(bus), Edge{intra_link_name(node), false, "", kBusWeight}, built.graph);
        std::string stack_link;
        if (stack) {
          stack_link = host + "-stack";
          link(stack_link, {node.nic.bandwidth_Bps * stack->nic_ratio, stack->latency_s}, true);
        }
        boost::add_edge(vertex(host), vertex(port), Edge{stack_link, stack && !stack->shared, host, kPortWeight}, built.graph);
      }
    }
  }
  return built;
}

}  // namespace

RingEmbedding embed_ring(const Topology& topology, const std::optional<ProcessStack>& stack,
                         const std::vector<std::string>& hosts) {
  BuiltGraph built = build(topology, stack);
  Graph& graph = built.graph;
  std::vector<int> component(boost::num_vertices(graph));
  if (boost::connected_components(graph, component.data()) > 1)
    throw InputError(fmt::format("topology {}: not every GPU reaches every other", topology.name));

  RingEmbedding ring;
  ring.links = built.links;
  const std::size_t n = hosts.size();
  std::map<std::string, std::vector<VertexId>> predecessors;  // shortest-path tree per source host
  for (std::size_t r = 0; r < n; ++r) {
    const VertexId from = built.vertex.at(hosts[r]), to = built.vertex.at(hosts[(r + 1) % n]);
    auto& tree = predecessors[hosts[r]];
    if (tree.empty()) {
      tree.resize(boost::num_vertices(graph));
      boost::dijkstra_shortest_paths(graph, from,
                                     boost::predecessor_map(tree.data()).weight_map(boost::get(&Edge::weight, graph)));
    }
    std::vector<LinkUse> route;
    double latency = 0;
    // Walk back from the destination; each edge is crossed from tree[v] to v.
    for (VertexId v = to; v != from; v = tree[v]) {
      const VertexId u = tree[v];
      const Edge& edge = graph[boost::edge(u, v, graph).first];
      if (edge.link.empty()) continue;
      const std::string direction = !edge.split ? "shared" : graph[u].name == edge.up_end ? "up" : "down";
      const LinkUse use{edge.link, direction};
      if (std::find(route.begin(), route.end(), use) != route.end()) continue;  // the bus is one link
      if (std::none_of(route.begin(), route.end(), [&](const LinkUse& seen) { return seen.link == use.link; }))
        latency += built.links.at(edge.link).latency_s;
      route.insert(route.begin(), use);
    }
    for (const LinkUse& use : route) ++ring.ring_edges[use];
    ring.routes.push_back(std::move(route));
    ring.route_latency_s.push_back(latency);
  }
  return ring;
}

std::string topology_dot(const Topology& topology, const std::optional<ProcessStack>& stack) {
  const BuiltGraph built = build(topology, stack);
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "graph \"{}\" {{\n  node [shape=box, fontsize=10];\n", topology.name);
  for (const auto& [name, id] : built.vertex)
    fmt::format_to(it, "  \"{}\" [shape={}];\n", name,
                   name.find("-gpu") != std::string::npos ? "box" : name.find("-switch") != std::string::npos ? "octagon" : "ellipse");
  for (auto [e, end] = boost::edges(built.graph); e != end; ++e) {
    const Edge& edge = built.graph[*e];
    const std::string label =
        edge.link.empty() ? "" : fmt::format("{}\\n{:g} Gbit/s", edge.link, built.links.at(edge.link).bandwidth_Bps * 8 / 1e9);
    fmt::format_to(it, "  \"{}\" -- \"{}\" [label=\"{}\", fontsize=8];\n", built.graph[boost::source(*e, built.graph)].name,
                   built.graph[boost::target(*e, built.graph)].name, label);
  }
  fmt::format_to(it, "}}\n");
  return fmt::to_string(out);
}

}  // namespace ringsim
