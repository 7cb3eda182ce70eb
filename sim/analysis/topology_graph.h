// The routes of a platform, and the ring embedded in it: which links each ring edge (rank r -> r+1)
// crosses, in which direction, and how many ring edges load each link direction.
//
// The routes come from one of two sources (route_source.h): a compact topology's platform plan, the
// same routes the simulated platform has (inside a node over the bus or NVLink ports, between nodes
// GPU -> its NIC -> switch [-> uplink -> spine -> uplink -> switch] -> NIC -> GPU), or SimGrid's own
// routing of a hand-written XML platform.
#pragma once

#include "../platform/platform_xml.h"
#include "../platform/topology.h"
#include "route_source.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// A platform under a model, with the route between any two hosts, from either route source.
class TopologyRoutes {
 public:
  // Throws InputError when a link has no bandwidth, or a background load names a link or direction
  // the platform does not have.
  TopologyRoutes(const Topology& topology, const PlatformModel& model);
  // The routes of a hand-written SimGrid XML platform (simgrid_routes.h).
  explicit TopologyRoutes(const std::filesystem::path& simgrid_xml);
  ~TopologyRoutes();
  TopologyRoutes(const TopologyRoutes&) = delete;
  TopologyRoutes& operator=(const TopologyRoutes&) = delete;

  Route route(const std::string& from_host, const std::string& to_host);
  const LinkProperties& link(const std::string& name) const;  // a link some route crosses
  // Bandwidth of a link direction left to the ring: the link's, less its background load.
  double bandwidth_of(const LinkUse& use) const;
  std::string dot(const std::string& title) const;
  // The flop rate of the slowest of HOSTS (rank slots): it paces the ring's reductions.
  double slowest_speed_flops(const std::vector<std::string>& hosts) const;

 private:
  std::unique_ptr<RouteSource> source_;
};

struct RingEmbedding {
  std::vector<std::vector<LinkUse>> routes;  // per ring edge r -> r+1
  std::vector<double> route_latency_s;       // per ring edge
  std::map<LinkUse, int> ring_edges;         // ring edges crossing each link direction
  std::map<std::string, LinkProperties> links;  // the links the ring crosses
  std::map<LinkUse, double> bandwidth;       // per used link direction, background load deducted
};

// Embeds the ring over HOSTS (host of each rank, in rank order).
RingEmbedding embed_ring(TopologyRoutes& routes, const std::vector<std::string>& hosts);
RingEmbedding embed_ring(const Topology& topology, const PlatformModel& model, const std::vector<std::string>& hosts);
RingEmbedding embed_ring(const Topology& topology, const std::optional<ProcessStack>& stack,
                         const std::vector<std::string>& hosts);

// The routes of TOPOLOGY under MODEL, which this checks (every background load names a link and
// direction it has): an InputError of the model reads "WHERE: model: ...".
std::unique_ptr<TopologyRoutes> routes_under_model(const Topology& topology, const PlatformModel& model,
                                                   const std::string& where);

}  // namespace ringsim
