// Compact topology -> SimGrid platform XML (v4.1).
//
// Shape: one Full-routed zone per rack holding one Full-routed zone per node. Inside a node every GPU is
// a host; GPU<->GPU routes cross the node's intra link, GPU->router routes cross the NIC upward and
// router->GPU routes cross it downward (SPLITDUPLEX, so each direction has full bandwidth). Node
// routers are joined through the rack's switch link. A transfer between nodes A and B therefore
// crosses A-nic(UP), rack-switch, B-nic(DOWN): its latency is the sum of those three.
#pragma once

#include "topology.h"

#include <string>

namespace ringsim {

std::string platform_xml(const Topology& topology);

}  // namespace ringsim
