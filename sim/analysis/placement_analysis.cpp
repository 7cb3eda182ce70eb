#include "placement_analysis.h"

#include "../common/input_error.h"
#include "platform_routes.h"
#include "ring_order.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

// "node0 x4, node1 x3, node2": each node once per run of consecutive ranks on it.
std::vector<std::string> nodes_in_ring_order(const ClusterLayout& layout, const std::vector<std::string>& hosts) {
  std::map<std::string, std::string> node_of_host;
  for (const NodeSlots& node : layout.nodes)
    for (const std::string& host : node.hosts) node_of_host[host] = node.name;
  std::vector<std::pair<std::string, int>> runs;
  for (const std::string& host : hosts) {
    const std::string& node = node_of_host.at(host);
    if (runs.empty() || runs.back().first != node) runs.emplace_back(node, 0);
    ++runs.back().second;
  }
  std::vector<std::string> nodes;
  for (const auto& [node, count] : runs) nodes.push_back(count == 1 ? node : fmt::format("{} x{}", node, count));
  return nodes;
}

}  // namespace

PlacementAnalysis analyze_placement(const Platform& platform, const ModelSettings& model,
                                    const PlacementAnalysisRequest& request) {
  const auto routes_of_platform = platform_routes(platform, model, request.model_where);
  TopologyRoutes& routes = *routes_of_platform;
  const ClusterLayout& layout = platform.layout;
  const PlacementSpec& placement = request.placement;
  if (auto misfit = placement_misfit(placement, layout))
    throw InputError(fmt::format("{}: {}", request.platform_file, *misfit));
  PlacementAnalysis analysis;
  analysis.hosts = hosts_of_ranks(placement, layout);
  const double gpu_speed = routes.slowest_speed_flops(analysis.hosts);
  const std::uint64_t largest = *std::max_element(request.sizes.begin(), request.sizes.end());
  if (request.optimized) {
    // The search starts from the placement's (cyclic) order; block order is the other reference.
    PlacementSpec block = placement;
    block.order = RankOrder::block;
    OptimizedOrderGain gain;
    gain.bytes = largest;
    gain.cyclic_time_s = predicted_ring_time(embed_ring(routes, analysis.hosts), largest, gpu_speed);
    gain.block_time_s = predicted_ring_time(embed_ring(routes, hosts_of_ranks(block, layout)), largest, gpu_speed);
    const OptimizedRingOrder best = optimize_ring_order(layout, routes, analysis.hosts, largest, gpu_speed);
    gain.time_s = best.time_s;
    analysis.hosts = best.hosts;
    analysis.optimized = gain;
  }
  analysis.ring = embed_ring(routes, analysis.hosts);
  analysis.bottleneck = find_bottleneck(analysis.ring);
  analysis.nodes_visited = nodes_in_ring_order(layout, analysis.hosts);
  for (auto bytes : request.sizes) analysis.predicted.push_back({bytes, predicted_ring_time(analysis.ring, bytes, gpu_speed)});
  if (model.nccl && platform.topology) {
    ModelSettings with_facts = model;
    with_facts.adopt_topology_gpus(*platform.topology);
    with_facts.nccl_facts = nccl_topology_facts(with_facts.shape(*platform.topology));
    analysis.nccl = nccl_case_of(with_facts, placement);
    if (analysis.nccl && analysis.nccl->nodes > 1)
      analysis.nccl_rails = nccl_rail_use(*with_facts.nccl_facts, placement, analysis.nccl->channels, with_facts.platform_model().nccl_pxn);
    for (auto bytes : request.sizes)
      analysis.nccl_predicted.push_back(
          {bytes, nccl_predict(*analysis.nccl, nccl_protocol_at(with_facts, analysis.nccl, bytes), bytes)});
  }
  return analysis;
}

}  // namespace ringsim
