// Where a platform's routes come from, behind one interface: the platform plan of a compact topology
// (plan_routes.h) or SimGrid's routing of a hand-written XML platform (simgrid_routes.h). Either
// gives the route between two hosts, the links routes cross (with their roles), the hosts' speeds
// and the graph that --dot draws; TopologyRoutes (topology_graph.h) reads them through this.
#pragma once

#include "../platform/link_roles.h"
#include "route_graph.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ringsim {

struct LinkUse {
  std::string link;       // SimGrid link id, e.g. "node0-nic"
  std::string direction;  // "up"/"down" on split-duplex links, "shared" otherwise
  auto operator<=>(const LinkUse&) const = default;
};

struct LinkProperties {
  double bandwidth_Bps = 0;
  double latency_s = 0;
  bool contended = true;  // false for a non-blocking switch: it never limits a flow
  bool split = false;     // split duplex: "up" and "down" are separate resources
  std::optional<LinkRole> role;  // none: a hand-written platform's link of no known role
  std::string host;              // a process stack's host (role stack)
};

struct Route {
  std::vector<LinkUse> hops;
  double latency_s = 0;
};

class RouteSource {
 public:
  virtual ~RouteSource() = default;
  // Throws InputError when a host is not on the platform or no route joins them.
  virtual Route route(const std::string& from_host, const std::string& to_host) = 0;
  virtual double speed_flops(const std::string& host) const = 0;  // throws InputError for an unknown host
  virtual const RouteGraph& graph() const = 0;

  const std::unordered_map<std::string, LinkProperties>& links() const { return links_; }  // those routes cross
  // The share of a link direction that a background load takes (0 when none).
  double background_fraction(const LinkUse& use) const {
    auto loaded = background_fraction_.find(use);
    return loaded == background_fraction_.end() ? 0 : loaded->second;
  }

 protected:
  std::unordered_map<std::string, LinkProperties> links_;
  std::map<LinkUse, double> background_fraction_;
};

}  // namespace ringsim
