// A compact topology as a Boost.Graph graph, and the ring embedded in it: which links each ring edge
// (rank r -> r+1) crosses, in which direction, and how many ring edges load each link direction.
//
// Vertices: every GPU (rank slot), each node's bus (the shared intra-node link), NIC port and uplink,
// each rack's switch. Edges carry the SimGrid link they stand for. Routing follows the generated platform:
// inside a node over the bus, between nodes GPU -> port -> switch -> port -> GPU (edge weights make the
// bus the shortest way inside a node).
#pragma once

#include "platform_xml.h"
#include "topology.h"

#include <map>
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
  bool contended = true;  // false for a FATPIPE (non-blocking switch): flows do not share it
};

struct RingEmbedding {
  std::vector<std::vector<LinkUse>> routes;  // per ring edge r -> r+1
  std::vector<double> route_latency_s;       // per ring edge
  std::map<LinkUse, int> ring_edges;         // ring edges crossing each link direction
  std::map<std::string, LinkProperties> links;
};

// Embeds the ring over HOSTS (host of each rank, in rank order). Throws InputError when the graph is
// not connected or a link has no bandwidth.
RingEmbedding embed_ring(const Topology& topology, const std::optional<ProcessStack>& stack,
                         const std::vector<std::string>& hosts);

// Graphviz DOT of the topology graph (for `ringsim platform --dot`).
std::string topology_dot(const Topology& topology, const std::optional<ProcessStack>& stack);

}  // namespace ringsim
