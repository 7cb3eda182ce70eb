// The routes of a platform, and the ring embedded in it: which links each ring edge (rank r -> r+1)
// crosses, in which direction, and how many ring edges load each link direction.
//
// A compact topology's routes come from its platform plan (platform_plan.h), the same routes the
// simulated platform has: inside a node over the bus or NVLink ports, between nodes GPU -> its NIC ->
// switch [-> uplink -> spine -> uplink -> switch] -> NIC -> GPU; computed per host pair in O(hops).
// Its Boost.Graph graph is drawn for --dot: every GPU, each node's bus (pcie/shm) or NVSwitch
// (nvlink), each NIC's port and uplink end, each rack's switch, each rack's spine port and the spine.
#pragma once

#include "../platform/platform_xml.h"
#include "../platform/topology.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
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
};

struct Route {
  std::vector<LinkUse> hops;
  double latency_s = 0;
};

// A platform under a model, with the route between any two hosts (computed on demand, kept).
class TopologyRoutes {
 public:
  // Throws InputError when a link has no bandwidth, or a background load names a link or direction
  // the platform does not have.
  TopologyRoutes(const Topology& topology, const PlatformModel& model);
  // The routes of a hand-written SimGrid XML platform, as SimGrid itself computes them; the graph holds
  // its hosts and links, joined as routes cross them (from the first host to every other and back).
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
  struct Impl;
  std::unique_ptr<Impl> impl_;
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
