// The plan (platform_plan.h) built directly in SimGrid's engine through the S4U API: node zones
// Full-routed as in the XML, but racks and the spine as StarZones (a route per member, not per
// member pair), so the platform's size and build time grow with the nodes. Zones, hosts, links and
// routes are created in the XML's document order, so SimGrid sees the same platform.
#pragma once

namespace ringsim {

class PlatformPlan;

// Builds PLAN as the platform of the running SimGrid engine (which has loaded no other platform).
void build_simgrid_platform(const PlatformPlan& plan);

}  // namespace ringsim
