#include "simgrid_routes.h"

#include "../common/input_error.h"
#include "../platform/cluster_layout.h"

#include <fmt/format.h>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace ringsim {
namespace {

std::string route_key(const std::string& from_host, const std::string& to_host) { return from_host + '\n' + to_host; }

}  // namespace

SimGridRoutes::SimGridRoutes(const std::filesystem::path& file) : name_(file.string()), engine_(&simgrid_platform(file)) {
  const auto hosts = engine_->get_all_hosts();
  if (hosts.empty()) throw InputError(fmt::format("{}: the platform declares no host", name_));
  const std::string first = hosts.front()->get_name();
  for (const auto* host : hosts) {
    routes_.emplace(route_key(first, host->get_name()), simgrid_route(first, host->get_name()));
    routes_.emplace(route_key(host->get_name(), first), simgrid_route(host->get_name(), first));
  }
  if (!graph_.connected()) throw InputError(fmt::format("{}: not every host reaches every other", name_));
}

Route SimGridRoutes::route(const std::string& from_host, const std::string& to_host) {
  const std::string key = route_key(from_host, to_host);
  auto it = routes_.find(key);
  if (it == routes_.end()) it = routes_.emplace(key, simgrid_route(from_host, to_host)).first;
  return it->second;
}

Route SimGridRoutes::simgrid_route(const std::string& from_host, const std::string& to_host) {
  const auto* from = engine_->host_by_name_or_null(from_host);
  const auto* to = engine_->host_by_name_or_null(to_host);
  if (from == nullptr || to == nullptr)
    throw InputError(fmt::format("platform {}: no host {}", name_, from == nullptr ? from_host : to_host));
  std::vector<simgrid::s4u::Link*> hops;
  double latency = 0;
  try {
    from->route_to(to, hops, &latency);
  } catch (const std::exception& e) {
    throw InputError(fmt::format("platform {}: no route from {} to {}: {}", name_, from_host, to_host, e.what()));
  }
  Route route;
  route.latency_s = latency;
  GraphVertex previous{from_host, VertexShape::box};
  for (const simgrid::s4u::Link* hop : hops) {
    std::string name = hop->get_name(), direction = "shared";
    for (const auto& [suffix, dir] : {std::pair{"_UP", "up"}, std::pair{"_DOWN", "down"}})
      if (name.ends_with(suffix) && hop->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::SHARED &&
          name.size() > std::string_view(suffix).size())
        name.resize(name.size() - std::string_view(suffix).size()), direction = dir;
    const bool fatpipe = hop->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE;
    if (!(hop->get_bandwidth() > 0)) throw InputError(fmt::format("platform {}: link {} has no bandwidth", name_, name));
    const auto role = role_of_written_link(name);
    auto [it, added] = links_.try_emplace(name, LinkProperties{hop->get_bandwidth(), hop->get_latency(), !fatpipe, direction != "shared",
                                                              role ? std::optional(role->role) : std::nullopt, role ? role->host : ""});
    if (!added && direction != "shared") it->second.split = true;
    route.hops.push_back({name, direction});
    const bool hub = role && (role->role == LinkRole::switch_link || role->role == LinkRole::spine || role->role == LinkRole::rail_leaf ||
                              role->role == LinkRole::rail_spine);
    const GraphVertex vertex{name, hub ? VertexShape::octagon : VertexShape::ellipse};
    graph_.join(previous, vertex);
    previous = vertex;
  }
  graph_.join(previous, {to_host, VertexShape::box});
  return route;
}

double SimGridRoutes::speed_flops(const std::string& host) const {
  const auto* found = engine_->host_by_name_or_null(host);
  if (found == nullptr) throw InputError(fmt::format("platform {}: no host {}", name_, host));
  return found->get_speed();
}

}  // namespace ringsim
