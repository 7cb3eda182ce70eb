// A hand-written SimGrid XML platform's routes, as SimGrid itself computes them ("node0-nic_UP" is link
// node0-nic crossed up). Its links' roles are those their names tell when `ringsim platform` wrote
// them (link_roles.h), else none. Its graph holds its hosts and links, joined as routes cross them.
#pragma once

#include "route_source.h"

#include <filesystem>

namespace simgrid::s4u {
class Engine;
}

namespace ringsim {

class SimGridRoutes final : public RouteSource {
 public:
  // Loads FILE (simgrid_platform) and routes the first host to every other and back. Throws
  // InputError when it declares no host, a link without bandwidth, or hosts that cannot all reach
  // each other.
  explicit SimGridRoutes(const std::filesystem::path& file);

  Route route(const std::string& from_host, const std::string& to_host) override;  // SimGrid's, kept
  double speed_flops(const std::string& host) const override;
  const RouteGraph& graph() const override { return graph_; }

 private:
  Route simgrid_route(const std::string& from_host, const std::string& to_host);

  std::string name_;
  const simgrid::s4u::Engine* engine_ = nullptr;
  std::unordered_map<std::string, Route> routes_;  // keyed "from\nto"
  RouteGraph graph_;
};

}  // namespace ringsim
