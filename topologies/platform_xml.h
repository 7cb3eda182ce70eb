// Compact topology -> SimGrid platform XML (v4.1).
//
// Shape: one Full-routed zone per rack holding one Full-routed zone per node. Inside a node every GPU is
// a host; GPU<->GPU routes cross the node's intra link, GPU->router routes cross the NIC upward and
// router->GPU routes cross it downward (SPLITDUPLEX, so each direction has full bandwidth). Node
// routers are joined through the rack's switch link. A transfer between nodes A and B therefore
// crosses A-nic(UP), rack-switch, B-nic(DOWN): its latency is the sum of those three.
#pragma once

#include "topology.h"

#include <optional>
#include <string>

namespace ringsim {

// The per-process network stack (model key "process_stack"): every rank's traffic to and from other
// nodes, both directions, also crosses one link of its own, "<host>-stack". Shared: a rank's send and
// receive compete for it (the seed report's "a process cannot progress send and receive at once");
// split: each direction has the full bandwidth. Traffic inside a node does not cross it.
struct ProcessStack {
  double nic_ratio = 1;  // bandwidth as a multiple of the node's NIC bandwidth
  bool shared = true;
  double latency_s = 0;
};

std::string platform_xml(const Topology& topology, const std::optional<ProcessStack>& stack = std::nullopt);

}  // namespace ringsim
