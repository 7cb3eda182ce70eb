#include "route_graph.h"

#include "route_source.h"

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
#include <map>
#include <vector>

namespace ringsim {

struct RouteGraph::Impl {
  struct Vertex {
    std::string name;
  };
  struct Edge {
    std::string link;  // empty: a hop that crosses no link
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Edge>;

  Graph graph;
  std::map<std::string, std::pair<Graph::vertex_descriptor, VertexShape>> vertex;  // by name: dot lists them so

  Graph::vertex_descriptor add_vertex(const GraphVertex& v) {
    auto [it, added] = vertex.try_emplace(v.name, 0, v.shape);
    if (added) it->second.first = boost::add_vertex(Vertex{v.name}, graph);
    return it->second.first;
  }
};

RouteGraph::RouteGraph() : impl_(std::make_unique<Impl>()) {}
RouteGraph::~RouteGraph() = default;

bool RouteGraph::empty() const { return boost::num_vertices(impl_->graph) == 0; }

void RouteGraph::add_edge(const GraphVertex& a, const GraphVertex& b, const std::string& link) {
  const auto u = impl_->add_vertex(a);
  boost::add_edge(u, impl_->add_vertex(b), Impl::Edge{link}, impl_->graph);
}

void RouteGraph::join(const GraphVertex& a, const GraphVertex& b) {
  const auto u = impl_->add_vertex(a), v = impl_->add_vertex(b);
  if (!boost::edge(u, v, impl_->graph).second) boost::add_edge(u, v, Impl::Edge{""}, impl_->graph);
}

bool RouteGraph::connected() const {
  std::vector<int> component(boost::num_vertices(impl_->graph));
  return boost::connected_components(impl_->graph, component.data()) <= 1;
}

std::string RouteGraph::dot(const std::string& title, const std::unordered_map<std::string, LinkProperties>& links) const {
  const Impl::Graph& graph = impl_->graph;
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "graph \"{}\" {{\n  node [shape=box, fontsize=10];\n", title);
  for (const auto& [name, vertex] : impl_->vertex)
    fmt::format_to(it, "  \"{}\" [shape={}];\n", name,
                   vertex.second == VertexShape::box ? "box" : vertex.second == VertexShape::octagon ? "octagon" : "ellipse");
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    const std::string& link = graph[*e].link;
    const std::string label = link.empty() ? "" : fmt::format("{}\\n{:g} Gbit/s", link, links.at(link).bandwidth_Bps * 8 / 1e9);
    fmt::format_to(it, "  \"{}\" -- \"{}\" [label=\"{}\", fontsize=8];\n", graph[boost::source(*e, graph)].name,
                   graph[boost::target(*e, graph)].name, label);
  }
  fmt::format_to(it, "}}\n");
  return fmt::to_string(out);
}

}  // namespace ringsim
