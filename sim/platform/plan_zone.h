// The platform library's one SimGrid zone: every host of a platform plan in a single zone that routes
// each pair of hosts from the plan (platform_plan.h). SimGrid routes a comm through nested zones by
// recursion, with a fresh route, a set of zones and a set of links per zone crossed, twice per comm
// under cross-traffic; this zone hands out routes it assembled once: per node, the route between
// each pair of its GPUs, per host, its way to and from its node's router, per rack, the way between
// its nodes. The link list and the latency are those of the nested zones bit for bit (the latency
// summed in the same order, PlatformPlan::route_latency), but for a non-blocking switch, which each
// node crosses as its own copy (set_ports); tests/platform/routes_match.sh holds this against
// SimGrid's routing of the XML, reading a copy as the switch it stands for.
#pragma once

#include "platform_plan.h"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Link.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ringsim {

class PlanZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  PlanZone(const std::string& name, std::shared_ptr<const PlatformPlan> plan);

  // Registers LINK as the plan's link INDEX (a split-duplex one gives its two directions).
  void set_link(std::size_t index, const simgrid::s4u::Link* link);
  void set_split_link(std::size_t index, const simgrid::s4u::SplitDuplexLink* link);
  // Registers HOST as the plan's host REF; then, once every host and link is in, assemble().
  void add_plan_host(const simgrid::s4u::Host* host, HostRef ref);
  // A link that never limits a flow (a non-blocking rack switch or spine, without background load)
  // still joins, as one SimGrid link, every flow crossing it into one max-min system, re-solved
  // whole at each comm's start and end: costly where comms start and end at scattered dates
  // (nccl_ring's handshake on 256 one-GPU nodes: 206 s, 2.8 s with copies). Each member (node of a
  // rack, rack under the spine) gets its own copies of it instead, one for the flows leaving the
  // member and one for those arriving from other racks; same bandwidth, latency and place in the
  // route, so each flow's latency and sharing penalty stay the same to the bit (docs/engines.md
  // has what this changes: rare regroupings of simultaneous completions).
  static bool gets_ports(const PlanLink& link) { return !link.contended && link.companions.empty(); }
  static std::string port_name(const PlanLink& link, const std::string& member, bool leaving);
  void set_ports(std::size_t link, std::size_t member, const simgrid::s4u::Link* leaving, const simgrid::s4u::Link* arriving);
  void assemble();

  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* route, double* latency) override;

 private:
  using LinkImpl = simgrid::kernel::resource::StandardLinkImpl;
  // Links in path order, and their latencies in the order SimGrid adds them: ranges of the two pools
  // below, which keep every route assembled in advance in a few contiguous arrays.
  struct Part {
    std::uint32_t first_link = 0, links = 0, first_latency = 0, latencies = 0;
  };
  Part part(const Hops& path, const Hops& latency_order);
  void append(const Part& part, simgrid::kernel::routing::Route* route) const;
  void add_latency(const Part& part, double* latency) const;

  std::shared_ptr<const PlatformPlan> plan_;
  std::vector<std::array<LinkImpl*, 3>> links_;  // per plan link: crossed whole, up, down
  std::vector<LinkImpl*> link_pool_;
  std::vector<double> latency_pool_;
  // Per netpoint id of this zone (every one a host): where it is, and its ways to and from its router.
  struct Point {
    HostRef host;
    std::size_t rack = 0;
    std::size_t pairs = 0;  // its node's first entry in node_pairs_
    std::size_t gpus = 0;   // of its node
    Part to_router, from_router;
  };
  std::vector<Point> points_;
  std::vector<Part> node_pairs_;   // per node, GPU a to GPU b at its first entry + a * gpus + b
  std::vector<Part> rack_middle_;  // per rack: between two of its nodes, when it is a star
  std::vector<Part> node_leaving_; // per node: between it and another node of its star rack, when the switch has ports
  // Per plan link with ports (gets_ports), per member: the copy for flows leaving it, and arriving.
  std::vector<std::vector<std::array<LinkImpl*, 2>>> ports_;
  LinkImpl* port(const Hop& hop, const Point& from, const Point& to) const;
  std::vector<char> rack_is_star_;
};

}  // namespace ringsim
