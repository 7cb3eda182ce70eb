#include "algorithm_costs.h"

#include "../model/algorithm_registry.h"
#include "topology_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

namespace ringsim {
namespace {

int ceil_log2(int p) {
  int rounds = 0;
  while ((1 << rounds) < p) ++rounds;
  return rounds;
}

int floor_log2(int p) { return ceil_log2(p + 1) - 1; }

// The ring's 2(p-1) steps each move a chunk of n/p to a neighbour (alpha + n/p beta); the p-1
// scatter-reduce steps add it (n/p gamma).
double ring_time(double p, double n, const CostParameters& c) {
  return 2 * (p - 1) * c.alpha_s + 2 * (p - 1) / p * n * c.beta_s_per_byte + (p - 1) / p * n * c.gamma_s_per_byte;
}

// recursive_doubling and rabenseifner on P ranks: the largest power of two Q <= P runs the rounds,
// the P - Q others fold in first.
double power_of_two_time(ClosedForm form, int ranks, double n, const CostParameters& c) {
  const double a = c.alpha_s, b = c.beta_s_per_byte, g = c.gamma_s_per_byte;
  const int main_ranks = 1 << floor_log2(ranks);
  const bool folded = main_ranks != ranks;
  const double lg = floor_log2(ranks), q = main_ranks;
  if (form == ClosedForm::recursive_doubling) {
    // lg P swaps of the whole buffer; extra ranks fold in (a send and an addition) and out (a send).
    return lg * (a + n * b + n * g) + (folded ? (a + n * b + n * g) + (a + n * b) : 0);
  }
  // Halving and doubling move (P-1)/P of the buffer each in lg P steps; the TRG fold swaps halves
  // and adds one (a + n/2 beta + n/2 gamma), hands the reduced half over (a + n/2 beta), and at the
  // end returns the whole result (a + n beta).
  return 2 * lg * a + 2 * (q - 1) / q * n * b + (q - 1) / q * n * g + (folded ? 3 * a + 2 * n * b + n / 2 * g : 0);
}

// nullopt where the algorithm has no closed form.
std::optional<double> time_of(const AlgorithmRow& algorithm, int ranks, double n, const CostParameters& c) {
  const double p = ranks, a = c.alpha_s, b = c.beta_s_per_byte, g = c.gamma_s_per_byte;
  const AlgorithmInfo& info = algorithm.info();
  switch (algorithm.closed_form) {
    case ClosedForm::none:
    case ClosedForm::nccl_model:
    case ClosedForm::collective: return std::nullopt;  // not an allreduce (collective_costs.h)
    // hierarchical with one rank per node; ring_bidir's two rings of n/2 each, whose NIC carries both
    // directions' chunks, n/p per step, as the ring.
    case ClosedForm::ring:
    case ClosedForm::hierarchical: return ring_time(p, n, c);
    case ClosedForm::segmented_ring: {
      // All segments of a step share the link at once (one alpha per step, the ring's bytes); a
      // segment is added while the others still travel, so one segment's addition per step shows.
      const double segment = std::min(static_cast<double>(info.segment_bytes), n / p);
      return 2 * (p - 1) * a + 2 * (p - 1) / p * n * b + (p - 1) * segment * g;
    }
    case ClosedForm::parameter_server: {
      // Push: each server's link receives the p-1 copies of its n/k shard at once; it adds them;
      // pull: the same back. With k = p every rank serves, the direct reduce-scatter + allgather.
      const double k = std::min(info.servers, ranks), shard = n / k;
      return 2 * a + 2 * (p - 1) * shard * b + (p - 1) * shard * g;
    }
    case ClosedForm::reduce_bcast: {
      // ceil(lg p) full-buffer sends (and additions) up the binomial tree, as many down.
      const double rounds = ceil_log2(ranks);
      return 2 * rounds * (a + n * b) + rounds * n * g;
    }
    case ClosedForm::recursive_doubling:
    case ClosedForm::rabenseifner: return power_of_two_time(algorithm.closed_form, ranks, n, c);
  }
  return std::nullopt;
}

// Node name of every host of the topology.
std::map<std::string, std::string> node_of_hosts(const Topology& topology) {
  std::map<std::string, std::string> node_of;
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes)
      for (int gpu = 0; gpu < node.gpus; ++gpu) node_of[host_name(node, gpu)] = node.name;
  return node_of;
}


// alpha and beta from the routes of the given ring edges of RING.
CostParameters from_routes(const RingEmbedding& ring, const std::vector<std::size_t>& edges) {
  CostParameters c;
  double slowest_bandwidth = std::numeric_limits<double>::infinity();
  for (std::size_t e : edges) {
    c.alpha_s = std::max(c.alpha_s, ring.route_latency_s[e]);
    for (const LinkUse& use : ring.routes[e]) slowest_bandwidth = std::min(slowest_bandwidth, ring.links.at(use.link).bandwidth_Bps);
  }
  if (std::isfinite(slowest_bandwidth)) c.beta_s_per_byte = 1 / slowest_bandwidth;
  return c;
}

}  // namespace

std::optional<double> closed_form_time_s(std::string_view algorithm, int ranks, std::uint64_t bytes,
                                         const CostParameters& p) {
  const AlgorithmRow* row = find_algorithm_row(algorithm);
  if (row == nullptr || row->closed_form == ClosedForm::none) return std::nullopt;
  if (ranks <= 1) return 0.0;  // a local copy
  return time_of(*row, ranks, static_cast<double>(bytes), p);
}

double hierarchical_time_s(int nodes, int ranks_per_node, std::uint64_t bytes, const CostParameters& between,
                           const CostParameters& inside) {
  const double n = static_cast<double>(bytes), g = ranks_per_node;
  // Binomial reduce and broadcast in the node: ceil(lg G) rounds each; every non-leader's buffer
  // crosses the shared bus once each way, (G-1) n beta; the leader's path adds ceil(lg G) buffers.
  const double rounds = ceil_log2(ranks_per_node);
  const double in_node = 2 * rounds * inside.alpha_s + 2 * (g - 1) * n * inside.beta_s_per_byte + rounds * n * between.gamma_s_per_byte;
  return in_node + (nodes > 1 ? ring_time(nodes, n, between) : 0);
}

CostParameters cost_parameters(const Topology& topology, const std::vector<std::string>& hosts) {
  TopologyRoutes routes(topology, PlatformModel{});
  return cost_parameters(routes, topology, hosts);
}

CostParameters cost_parameters(TopologyRoutes& routes, const Topology& topology, const std::vector<std::string>& hosts) {
  const RingEmbedding ring = embed_ring(routes, hosts);
  const auto node_of = node_of_hosts(topology);
  std::vector<std::size_t> between_nodes, all;
  for (std::size_t e = 0; e < hosts.size(); ++e) {
    if (ring.routes[e].empty()) continue;  // a rank to itself
    all.push_back(e);
    if (node_of.at(hosts[e]) != node_of.at(hosts[(e + 1) % hosts.size()])) between_nodes.push_back(e);
  }
  CostParameters c = from_routes(ring, between_nodes.empty() ? all : between_nodes);
  const double flops = routes.slowest_speed_flops(hosts);
  if (std::isfinite(flops) && flops > 0) c.gamma_s_per_byte = 1 / (sizeof(float) * flops);
  return c;
}

std::optional<CostParameters> intra_node_cost_parameters(const Topology& topology,
                                                         const std::vector<std::string>& hosts) {
  TopologyRoutes routes(topology, PlatformModel{});
  return intra_node_cost_parameters(routes, topology, hosts);
}

std::optional<CostParameters> intra_node_cost_parameters(TopologyRoutes& routes, const Topology& topology,
                                                         const std::vector<std::string>& hosts) {
  const auto node_of = node_of_hosts(topology);
  // The first pair (i < j) of ranks on one node and on different hosts; ranks grouped by node first,
  // so that thousands of single-rank nodes cost O(N), not O(N^2).
  std::map<std::string, std::vector<std::size_t>> ranks_of_node;
  for (std::size_t i = 0; i < hosts.size(); ++i) ranks_of_node[node_of.at(hosts[i])].push_back(i);
  for (std::size_t i = 0; i < hosts.size(); ++i)
    for (std::size_t j : ranks_of_node.at(node_of.at(hosts[i])))
      if (j > i && hosts[i] != hosts[j]) return cost_parameters(routes, topology, {hosts[i], hosts[j]});
  return std::nullopt;
}

}  // namespace ringsim
