// The bytes one call of a collective moves over each link direction of a platform: the call's
// point-to-point flows (which rank sends how many bytes to which, as its algorithm's code sends them),
// each routed as the simulated platform routes it, summed per link direction and per role of link
// (NIC, intra-node, switch), beside the closed-form traffic (docs/collectives.md).
#pragma once

#include "../rank/collective_catalog.h"
#include "topology_graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// All the bytes rank FROM sends rank TO in one call, as the closed forms count them (pieces of S/N).
struct PairFlow {
  int from = 0;
  int to = 0;
  double bytes = 0;
};

// The flows of one call of COLLECTIVE by ALGORITHM over RANKS ranks at a size of BYTES (nccl-tests'
// size); nullopt when its flows are not modelled here: all_reduce's algorithms other than the ring, and
// NCCL's (their channels are analyze's NCCL section).
std::optional<std::vector<PairFlow>> collective_flows(Collective collective, std::string_view algorithm, int ranks,
                                                      std::uint64_t bytes);

// What a link is for, as a traffic table groups links.
enum class LinkClass { nic, intra_node, switch_fabric, stack, other };
std::string_view link_class_name(LinkClass link_class);  // "NIC", "intra-node", "switch", "stack", "other"
LinkClass link_class_of(const LinkProperties& link);

struct LinkTraffic {
  LinkUse use;
  LinkClass link_class = LinkClass::other;
  int flows = 0;      // pair flows crossing it
  double bytes = 0;   // their bytes
  double bandwidth_Bps = 0;
  bool contended = true;  // false: a non-blocking switch, which never limits a flow
};

struct CollectiveTraffic {
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::size_t flows = 0;              // pair flows of the call
  std::vector<LinkTraffic> links;     // every link direction some flow crosses, by link and direction
  std::vector<LinkTraffic> busiest;   // per class present, the link direction with the most bytes (first on a tie)
};

// FLOWS routed over ROUTES among HOSTS (host of each rank).
CollectiveTraffic route_traffic(TopologyRoutes& routes, const std::vector<std::string>& hosts, const std::vector<PairFlow>& flows,
                                std::uint64_t bytes);

}  // namespace ringsim
