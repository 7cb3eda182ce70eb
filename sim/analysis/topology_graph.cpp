#include "topology_graph.h"

#include "../common/input_error.h"
#include "plan_routes.h"
#include "simgrid_routes.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

TopologyRoutes::TopologyRoutes(const Topology& topology, const PlatformModel& model)
    : source_(std::make_unique<PlanRoutes>(topology, model)) {}

TopologyRoutes::TopologyRoutes(const std::filesystem::path& simgrid_xml) : source_(std::make_unique<SimGridRoutes>(simgrid_xml)) {}

TopologyRoutes::~TopologyRoutes() = default;

Route TopologyRoutes::route(const std::string& from_host, const std::string& to_host) { return source_->route(from_host, to_host); }

const LinkProperties& TopologyRoutes::link(const std::string& name) const { return source_->links().at(name); }

double TopologyRoutes::bandwidth_of(const LinkUse& use) const {
  return source_->links().at(use.link).bandwidth_Bps * (1 - source_->background_fraction(use));
}

double TopologyRoutes::slowest_speed_flops(const std::vector<std::string>& hosts) const {
  double slowest = source_->speed_flops(hosts.front());
  for (const std::string& host : hosts) slowest = std::min(slowest, source_->speed_flops(host));
  return slowest;
}

std::string TopologyRoutes::dot(const std::string& title) const { return source_->graph().dot(title, source_->links()); }

RingEmbedding embed_ring(TopologyRoutes& routes, const std::vector<std::string>& hosts) {
  RingEmbedding ring;
  const std::size_t n = hosts.size();
  ring.routes.reserve(n);
  ring.route_latency_s.reserve(n);
  for (std::size_t r = 0; r < n; ++r) {
    Route route = routes.route(hosts[r], hosts[(r + 1) % n]);
    for (const LinkUse& use : route.hops) {
      if (++ring.ring_edges[use] == 1) ring.bandwidth[use] = routes.bandwidth_of(use);
      ring.links.try_emplace(use.link, routes.link(use.link));
    }
    ring.routes.push_back(std::move(route.hops));
    ring.route_latency_s.push_back(route.latency_s);
  }
  return ring;
}

RingEmbedding embed_ring(const Topology& topology, const PlatformModel& model, const std::vector<std::string>& hosts) {
  TopologyRoutes routes(topology, model);
  return embed_ring(routes, hosts);
}

RingEmbedding embed_ring(const Topology& topology, const std::optional<ProcessStack>& stack,
                         const std::vector<std::string>& hosts) {
  return embed_ring(topology, PlatformModel{stack, false, {}}, hosts);
}

std::unique_ptr<TopologyRoutes> routes_under_model(const Topology& topology, const PlatformModel& model,
                                                   const std::string& where) {
  try {
    return std::make_unique<TopologyRoutes>(topology, model);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: model: {}", where, e.what()));
  }
}

}  // namespace ringsim
