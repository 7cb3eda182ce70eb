#include "ring_calibration.h"

#include "../common/input_error.h"
#include "../model/algorithm_registry.h"
#include "../nccl/nccl_plan.h"
#include "../nccl/nccl_rails.h"
#include "../analysis/topology_graph.h"

#include <algorithm>
#include <set>
#include <fmt/format.h>
#include <stdexcept>

namespace ringsim {

Platform calibration_platform(const Scenario& scenario) {
  Platform platform = load_platform(scenario.topology);
  if (!platform.topology)
    throw InputError(fmt::format("{}: calibration scales a compact topology's links; SimGrid XML is not supported",
                                 scenario.topology.string()));
  return platform;
}

namespace {

// The route's latencies and NICs, from the roles of the links it crosses.
CalibrationRoute route_terms(const TopologyRoutes& routes, const Route& route) {
  CalibrationRoute terms{.route_latency_s = route.latency_s, .fixed_latency_s = 0, .nic_hops = 0, .nic_bandwidth_Bps = 0};
  for (const LinkUse& use : route.hops) {
    const LinkProperties& link = routes.link(use.link);
    if (link.role != LinkRole::nic) {
      terms.fixed_latency_s += link.latency_s;
      continue;
    }
    ++terms.nic_hops;
    if (terms.nic_hops == 1 || link.bandwidth_Bps < terms.nic_bandwidth_Bps) terms.nic_bandwidth_Bps = link.bandwidth_Bps;
  }
  return terms;
}

}  // namespace

CalibrationRoute calibration_route(const Platform& platform, const GroupedTrace& grouped, const std::string& trace_file) {
  TopologyRoutes routes(*platform.topology, PlatformModel{});  // the topology as written: the model is what calibration writes
  std::vector<const PlacementSpec*> placements;
  for (const auto& measured : grouped.cases)
    if (measured.placement.order != RankOrder::optimized && busiest_nic_direction_edges(measured.placement) > 0)
      placements.push_back(&measured.placement);
  if (placements.empty())
    for (const auto& measured : grouped.cases) placements.push_back(&measured.placement);
  std::optional<Route> longest;
  std::set<std::vector<int>> seen;  // cases of one placement cross the same routes
  for (const PlacementSpec* placement : placements) {
    if (const auto misfit = placement_misfit(*placement, platform.layout)) throw InputError(fmt::format("{}: {}", trace_file, *misfit));
    if (!seen.insert(placement->ranks_per_node).second) continue;
    const PlacementSpec block{placement->ranks_per_node, RankOrder::block};  // the same hosts, whatever the order
    const std::vector<std::string> hosts = hosts_of_ranks(block, platform.layout);
    const std::vector<int> nodes = node_of_ranks(block);
    for (std::size_t a = 0; a < hosts.size(); ++a)
      for (std::size_t b = 0; b < hosts.size(); ++b)
        if (nodes[a] != nodes[b])
          if (Route route = routes.route(hosts[a], hosts[b]); !longest || route.latency_s > longest->latency_s) longest = std::move(route);
  }
  if (!longest) {  // no case spans two nodes (nothing to fit): the first two nodes' route, if any
    const ClusterLayout& layout = platform.layout;
    if (layout.nodes.size() < 2) return {};
    longest = routes.route(layout.nodes[0].hosts.front(), layout.nodes[1].hosts.front());
  }
  if (longest->latency_s <= 0)
    throw InputError(fmt::format("{}: the route between nodes has zero latency; give the NICs a latency (e.g. 5us) "
                                 "so that the fitted one can be expressed as a factor of it",
                                 platform.source.string()));
  CalibrationRoute terms = route_terms(routes, *longest);
  // The slowest NIC's transport (the least payload share among NICs of that rate).
  for (const RackSpec& rack : platform.topology->racks)
    for (const NodeSpec& node : rack.nodes)
      if (node.nic.bandwidth_Bps == terms.nic_bandwidth_Bps)
        terms.nic_payload_share = std::min(terms.nic_payload_share, transport_payload_share(node.nic_transport));
  return terms;
}

double calibration_edges(const std::string& algorithm, const PlacementSpec& placement, const ModelSettings& model) {
  if (!is_nccl_algorithm(algorithm)) return busiest_nic_direction_edges(placement);  // NCCL: node-contiguous rings
  if (placement.nodes_used() < 2) return 0;
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (!c || !model.nccl_facts || model.nccl_facts->nodes.empty()) return 1;
  // The rails' bus bandwidth is a NIC's rate over the busiest direction's share of the channels.
  const NcclRailUse use = nccl_rail_use(*model.nccl_facts, placement, c->channels, model.platform_model().nccl_pxn);
  const double nic_Bps = model.nccl_facts->nic_bandwidth_Bps;
  return use.bus_bandwidth_Bps > 0 && nic_Bps > 0 ? std::min(1.0, nic_Bps / use.bus_bandwidth_Bps) : 1;
}

RingCalibration calibrate_ring(const CalibrationRoute& route, const GroupedTrace& grouped, std::uint64_t min_bytes,
                               const std::string& trace_file, const std::string& algorithm, const ModelSettings& model) {
  RingCalibration calibration;
  calibration.route = route;
  calibration.algorithm = algorithm;
  std::vector<StepSample> samples;
  for (const auto& measured : grouped.cases) {
    const int n = measured.placement.total_ranks();
    if (measured.placement.order == RankOrder::optimized) continue;  // its order is the model's choice: not a fit input
    const double edges = calibration_edges(algorithm, measured.placement, model);
    if (edges <= 0 || n < 2) continue;  // no traffic between nodes: nothing about the network to learn
    for (const auto& [bytes, time] : measured.median_time_s) {
      if (bytes < min_bytes) continue;
      samples.push_back({edges * static_cast<double>(bytes) / n, time / (2.0 * (n - 1))});
      calibration.rows.push_back({measured.placement.label(), bytes, n, edges, time, 0});
    }
  }
  try {
    calibration.fit = fit_step_times(samples);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: {}", trace_file, e.what()));
  }
  for (auto& row : calibration.rows)
    row.fitted_s = 2.0 * (row.ranks - 1) * calibration.fit.predict(static_cast<double>(row.edges) * row.bytes / row.ranks);
  calibration.nic_efficiency = calibration.fit.bandwidth_Bps() / route.nic_bandwidth_Bps;
  if (calibration.nic_efficiency > 1)
    throw InputError(fmt::format("{}: the trace moves {:.0f} MB/s per NIC direction, more than the topology's NIC ({:.0f} MB/s); "
                                 "give the topology the NIC's real rate",
                                 trace_file, calibration.fit.bandwidth_Bps() / 1e6, route.nic_bandwidth_Bps / 1e6));
  if (!is_nccl_algorithm(algorithm))
    calibration.nic_latency_s = std::max(0.0, (calibration.fit.latency_s - route.fixed_latency_s) / route.nic_hops);
  return calibration;
}

nlohmann::json calibrated_model(const RingCalibration& calibration, const std::string& trace_file,
                                const std::string& trace_format, std::uint64_t min_bytes) {
  const StepFit& fit = calibration.fit;
  // NCCL's algorithms run the model made for NCCL (its NVLink payload, Simple's handshake), the
  // efficiency beyond the NIC's transport payload share; the others plain max-min sharing.
  const bool nccl = is_nccl_algorithm(calibration.algorithm);
  const double share = nccl ? calibration.route.nic_payload_share : 1;
  nlohmann::json model = {
      {"network", nccl ? "NCCL" : "CM02"},
      {"crosstraffic", false},
      {"factors", "none"},
      {"nic_efficiency", std::min(1.0, calibration.nic_efficiency / share)},
      {"calibration",
       {{"trace", trace_file}, {"format", trace_format}, {"algorithm", calibration.algorithm}, {"step_latency_s", fit.latency_s},
        {"bandwidth_Bps", fit.bandwidth_Bps()}, {"r_squared", fit.r_squared},
        {"median_abs_residual", fit.median_abs_residual}, {"samples", fit.samples}, {"min_bytes", min_bytes}}}};
  if (calibration.nic_latency_s) model["nic_latency"] = fmt::format("{:g}us", *calibration.nic_latency_s * 1e6);
  return model;
}

}  // namespace ringsim
