// A compact topology's routes: those of its platform plan (platform_plan.h) under a model, the routes
// the simulated platform has, computed per host pair in O(hops); each link with the role the plan
// gave it. Background companions are not links here: their load is deducted from the loaded link.
#pragma once

#include "../platform/platform_plan.h"
#include "route_source.h"

namespace ringsim {

class PlanRoutes final : public RouteSource {
 public:
  // Throws InputError when a link has no bandwidth, or a background load names a link or direction
  // the platform does not have.
  PlanRoutes(const Topology& topology, const PlatformModel& model);

  Route route(const std::string& from_host, const std::string& to_host) override;
  double speed_flops(const std::string& host) const override;
  // Every GPU, each node's bus (pcie/shm) or NVSwitch (nvlink), each NIC's port and uplink end, each
  // rack's switch, and with several racks each rack's spine port and the spine (on a rail fabric each
  // rail's leaf, its uplink's end and the spine instead of the switch); drawn when first asked.
  const RouteGraph& graph() const override;

 private:
  const HostRef& host(const std::string& name) const;
  void add_rail_spine() const;  // each rail leaf's uplink to the spine

  PlatformPlan plan_;
  mutable RouteGraph graph_;
};

}  // namespace ringsim
