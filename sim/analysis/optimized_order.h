// Placements in "optimized" order: the rank order is searched (ring_order.h) on the platform
// under the scenario's model, once per simulation, before any case runs.
#pragma once

#include "../model/scenario.h"
#include "topology_graph.h"

namespace ringsim {

// SCENARIO with the order of every "optimized" placement found: the search minimises the ring's
// closed-form time at the scenario's largest size, starting from the cyclic order and from the hosts
// grouped by node; ranks then take each node's slots in order.
Scenario with_optimized_orders(Scenario scenario, const Platform& platform);

// The same on ROUTES, the platform's routes under the scenario's model, already built.
Scenario with_optimized_orders(Scenario scenario, const ClusterLayout& layout, TopologyRoutes& routes);

}  // namespace ringsim
