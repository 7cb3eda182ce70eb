// The graph of a platform that `--dot` draws (Graphviz): its vertices (hosts, switches, ports) and the
// links joining them. Each route source (route_source.h) builds it from what it knows of the links.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

namespace ringsim {

struct LinkProperties;

enum class VertexShape { box, octagon, ellipse };  // a GPU (host); a switch, spine or NVSwitch; anything else

struct GraphVertex {
  std::string name;
  VertexShape shape = VertexShape::ellipse;
};

class RouteGraph {
 public:
  RouteGraph();
  ~RouteGraph();
  RouteGraph(const RouteGraph&) = delete;
  RouteGraph& operator=(const RouteGraph&) = delete;

  bool empty() const;
  // An edge from A to B over LINK (empty: a hop that crosses no link); a vertex keeps its first shape.
  void add_edge(const GraphVertex& a, const GraphVertex& b, const std::string& link);
  // Joins A and B by an edge without a link, unless an edge joins them already.
  void join(const GraphVertex& a, const GraphVertex& b);
  bool connected() const;  // every vertex reaches every other
  // Vertices by name, edges in the order they were added, each labelled with its link's bandwidth.
  std::string dot(const std::string& title, const std::unordered_map<std::string, LinkProperties>& links) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ringsim
