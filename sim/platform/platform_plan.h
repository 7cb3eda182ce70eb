// The platform plan: a compact topology under a platform model as typed links (each with its role)
// and the routes between them, written once. Every reader takes its routes from here: the SimGrid
// XML writer (platform_xml.h), the SimGrid platform library (platform_library.cpp: one zone that
// routes from the plan, plan_zone.h, so the platform grows with the nodes), and the ring analysis
// (topology_graph.h).
//
// Zones, as the XML gives them to SimGrid: one zone per node (a route per GPU pair and per GPU <-> node router),
// one star per rack over its node zones (and, under a spine, the rack's core zone holding the rack's
// router), and with several racks a star over the racks. A star member M has an "up" route (from M
// towards the star's centre) and a "down" route (from the centre to M); the route from A to B in a
// star is A's up route followed by B's down route, each link kept once, in that order (SimGrid's
// StarZone does exactly this). In a rack, the pair routes are declared once per pair (first member
// to later member; the core zone comes last) and the way back is the way there reversed, as in the
// XML's symmetrical zoneRoutes: the same as the star's unless the switch carries a background load
// (its companion link then comes first on the way back), so such a rack is built Full-routed.
// A route between hosts joins the zone routes as SimGrid's hierarchical routing does: source host ->
// its node router, the routes of every level crossed (rack, spine, rack), node router -> destination.
// A rail fabric (topology.h RailFabric) has no such levels: which leaf a transfer crosses depends on
// the GPUs at its ends, not on their nodes alone, so its routes are given per host pair (rail_route)
// and the XML is one Full-routed zone holding every host.
#pragma once

#include "link_roles.h"
#include "platform_xml.h"
#include "topology.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ringsim {

// How a route crosses a link: split-duplex links in a direction, every other link as a whole.
enum class Crossing { whole, up, down };

struct PlanLink {
  std::string name;
  LinkSpec spec;
  LinkRole role = LinkRole::bus;
  bool split = false;      // SPLITDUPLEX (up and down are separate resources), else SHARED
  bool contended = true;   // false for a non-blocking switch or spine: it never limits a flow
  // Background load (model key "background"): per loaded crossing, the companion link of the
  // bandwidth left over that every flow crossing the link that way also crosses.
  struct Companion {
    Crossing loaded = Crossing::whole;
    std::size_t link = 0;
    double fraction = 0;
  };
  std::vector<Companion> companions;
};

struct Hop {
  std::size_t link = 0;  // index in PlatformPlan::links()
  Crossing crossing = Crossing::whole;
  bool operator==(const Hop&) const = default;
};
using Hops = std::vector<Hop>;

struct PlanNode {
  const NodeSpec* spec = nullptr;
  std::size_t rack = 0;
  std::size_t position = 0;               // in its rack's nodes
  std::string router;
  std::vector<std::string> hosts;         // one per GPU
  std::vector<std::size_t> declared;      // links declared in the node's zone, in document order
  std::vector<std::size_t> fabric;        // ports (nvlink, or "fabric": "ports"): one per GPU; else the one bus
  std::vector<std::size_t> nics;
  std::vector<std::size_t> stacks;        // per GPU, under a process stack
  std::vector<std::size_t> pcie_switches; // the uplinks of the node's PCIe switches (NodeSpec::switch_gpus)
  std::vector<std::size_t> host_pcie;     // per GPU, its PCIe link to host memory beside NVLink (NodeSpec::host_pcie)
  // Whether the node's GPUs share one bus (else each has its own port, even where a node has one GPU).
  bool shared_bus() const { return !spec->intra_ports; }
};

struct PlanRack {
  const RackSpec* spec = nullptr;
  std::vector<std::size_t> nodes;         // indices in PlatformPlan::nodes()
  std::string core_zone, router;          // under a spine: the zone holding the rack's gateway router
  std::size_t switch_link = 0;            // none on a rail fabric, whose NICs hang off its leaves
  std::size_t uplink = 0;                 // under a spine
};

struct HostRef {
  std::size_t node = 0;
  int gpu = 0;
};

class PlatformPlan {
 public:
  // Throws InputError when a link has no bandwidth or a background load names a link or direction
  // the platform does not have.
  PlatformPlan(const Topology& topology, const PlatformModel& model);
  PlatformPlan(const PlatformPlan&) = delete;
  PlatformPlan& operator=(const PlatformPlan&) = delete;

  const Topology& topology() const { return topology_; }
  const PlatformModel& model() const { return model_; }
  const std::vector<PlanLink>& links() const { return links_; }
  const std::vector<PlanNode>& nodes() const { return nodes_; }
  const std::vector<PlanRack>& racks() const { return racks_; }
  bool has_spine() const { return topology_.spine.has_value(); }
  std::size_t spine_link() const { return spine_link_; }
  std::vector<std::size_t> spine_declared() const;  // uplinks then spine, with their companions
  bool has_rails() const { return topology_.rails.has_value(); }
  std::vector<std::size_t> rails_declared() const;  // the rail leaves, their uplinks, the rail spine

  // Crossing LINK that way: the link (without direction when it is not split) and its companions.
  Hops hop(std::size_t link, Crossing crossing) const;

  // Zone routes. Inside node zone NODE (a != b):
  Hops gpu_to_gpu(std::size_t node, int a, int b) const;
  Hops gpu_to_router(std::size_t node, int gpu) const;
  Hops router_to_gpu(std::size_t node, int gpu) const;
  // Star routes of a node in its rack (the rack's core zone has empty ones) and of a rack under the spine:
  Hops node_up(std::size_t node) const;
  Hops node_down(std::size_t node) const;
  // In rack RACK, from member A to member B: positions in PlanRack::nodes, or core_member(RACK).
  Hops rack_route(std::size_t rack, std::size_t a, std::size_t b) const;
  std::size_t core_member(std::size_t rack) const { return racks_[rack].nodes.size(); }
  bool rack_is_star(std::size_t rack) const;  // its routes are those of a star of its members
  Hops rack_up(std::size_t rack) const;
  Hops rack_down(std::size_t rack) const;
  // A star's route from a member with route UP to a member with route DOWN.
  static Hops star_route(const Hops& up, const Hops& down);

  // Between nodes of a rail fabric: out of FROM's NIC to its rail's leaf; to another rail's NIC up that
  // leaf's uplink, across the spine and down the other leaf's, unless PXN hands the data first to the
  // GPU of FROM's node beside the NIC of TO's rail; then that rail's leaf and TO's NIC.
  Hops rail_route(HostRef from, HostRef to) const;
  // The GPU of NODE beside NIC that GPU hands its sends to that NIC's rail to under PXN; -1 for none
  // (no PXN, no NVLink between the node's GPUs, or no GPU beside that NIC).
  int pxn_proxy(std::size_t node, int gpu, int nic) const;

  // The whole route between two hosts, in path order, as SimGrid routes it through the zones above.
  Hops route(HostRef from, HostRef to) const;
  // The same hops in the order SimGrid's hierarchical routing adds their latencies: each zone's own
  // links first, then the way from the source to that zone's gateway, then the way on to the
  // destination. Summed in this order, the route's latency is SimGrid's to the last bit.
  Hops latency_order(HostRef from, HostRef to) const;
  double route_latency(HostRef from, HostRef to) const;
  const HostRef* find_host(std::string_view name) const;

 private:
  std::size_t add_link(std::string name, LinkSpec spec, LinkRole role, bool split, bool contended = true);
  // GPU's way into the node's fabric towards another GPU (its port and its PCIe switch's uplink, or
  // the node's bus), that way.
  Hops fabric_way(std::size_t node, int gpu, Crossing crossing) const;
  // GPU's way to host memory, that way: its own PCIe link beside NVLink, else its fabric way.
  Hops to_host(std::size_t node, int gpu, Crossing crossing) const;
  void add_background(const BackgroundLoad& load);

  Topology topology_;
  PlatformModel model_;
  std::vector<PlanLink> links_;
  std::vector<PlanNode> nodes_;
  std::vector<PlanRack> racks_;
  std::size_t spine_link_ = 0;
  std::vector<std::size_t> rail_leaves_, rail_uplinks_;  // per rail
  std::size_t rail_spine_ = 0;
  std::unordered_map<std::string, HostRef> hosts_;
};

}  // namespace ringsim
