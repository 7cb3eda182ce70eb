// The plan (platform_plan.h) built directly in SimGrid's engine: every host and link in one zone that
// routes from the plan (plan_zone.h), so the platform's size and build time grow with the nodes and a
// comm's route costs a few copies. Hosts and links are created in the XML's document order, and every
// route is the XML's, link by link and latency bit by bit, so SimGrid simulates the same platform.
#pragma once

#include <memory>

namespace ringsim {

class PlatformPlan;

// Builds PLAN as the platform of the running SimGrid engine (which has loaded no other platform).
void build_simgrid_platform(std::shared_ptr<const PlatformPlan> plan);

}  // namespace ringsim
