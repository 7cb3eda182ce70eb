#include "collective_traffic.h"

#include "../model/algorithm_registry.h"

#include <map>

namespace ringsim {
namespace {

// Ring edges r -> r+1, each carrying PER_EDGE bytes.
std::vector<PairFlow> ring_flows(int n, double per_edge) {
  std::vector<PairFlow> flows;
  for (int r = 0; r < n; ++r) flows.push_back({r, (r + 1) % n, per_edge});
  return flows;
}

// The binomial tree of binomial_tree.cpp: rank v's parent is v less its lowest set bit.
std::vector<PairFlow> binomial_flows(int n, double bytes, bool toward_root) {
  std::vector<PairFlow> flows;
  for (int v = 1; v < n; ++v) {
    const int parent = v - (v & -v);
    flows.push_back(toward_root ? PairFlow{v, parent, bytes} : PairFlow{parent, v, bytes});
  }
  return flows;
}

// The chain 0 -> 1 -> ... -> N-1 (broadcast) or back (reduce): every hop carries the whole buffer.
std::vector<PairFlow> chain_flows(int n, double bytes, bool toward_root) {
  std::vector<PairFlow> flows;
  for (int r = 0; r + 1 < n; ++r) flows.push_back(toward_root ? PairFlow{r + 1, r, bytes} : PairFlow{r, r + 1, bytes});
  return flows;
}

std::vector<PairFlow> alltoall_flows(int n, double block) {
  std::vector<PairFlow> flows;
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to)
      if (from != to) flows.push_back({from, to, block});
  return flows;
}

std::optional<std::vector<PairFlow>> method_flows(CollectiveMethod method, int n, double s) {
  switch (method) {
    case CollectiveMethod::ring_all_gather:
    case CollectiveMethod::ring_reduce_scatter: return ring_flows(n, (n - 1) * s / n);
    case CollectiveMethod::binomial_broadcast: return binomial_flows(n, s, false);
    case CollectiveMethod::binomial_reduce: return binomial_flows(n, s, true);
    case CollectiveMethod::chain_broadcast: return chain_flows(n, s, false);
    case CollectiveMethod::chain_reduce: return chain_flows(n, s, true);
    // NCCL's point-to-point schedule moves the same pair flows; its rounds and channels set only their order.
    case CollectiveMethod::pairwise_alltoall:
    case CollectiveMethod::linear_alltoall:
    case CollectiveMethod::nccl_p2p_alltoall: return alltoall_flows(n, s / n);
    case CollectiveMethod::ring_shift:
    case CollectiveMethod::nccl_p2p_sendrecv: return ring_flows(n, s);
    case CollectiveMethod::nccl_ring_all_gather:
    case CollectiveMethod::nccl_ring_reduce_scatter:
    case CollectiveMethod::nccl_ring_broadcast:
    case CollectiveMethod::nccl_ring_reduce:
    case CollectiveMethod::nccl_nvls_all_gather:
    case CollectiveMethod::nccl_nvls_reduce_scatter:
    case CollectiveMethod::nccl_all_gather:
    case CollectiveMethod::nccl_reduce_scatter:
    case CollectiveMethod::nccl_pat_all_gather:
    case CollectiveMethod::nccl_pat_reduce_scatter: break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<PairFlow>> collective_flows(Collective collective, std::string_view algorithm, int ranks,
                                                      std::uint64_t bytes) {
  const double s = static_cast<double>(bytes);
  if (collective == Collective::all_reduce) {
    // The ring allreduce: 2(N-1) steps of S/N along every ring edge.
    if (!names_algorithm(algorithm, AlgorithmId::ring)) return std::nullopt;
    return ranks < 2 ? std::vector<PairFlow>{} : ring_flows(ranks, 2.0 * (ranks - 1) * s / ranks);
  }
  const CollectiveAlgorithmInfo* info = find_collective_algorithm_info(collective, algorithm);
  if (info == nullptr) return std::nullopt;
  if (ranks < 2) return is_nccl_method(info->method) ? std::nullopt : std::optional{std::vector<PairFlow>{}};
  return method_flows(info->method, ranks, s);
}

std::string_view link_class_name(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::nic: return "NIC";
    case LinkClass::intra_node: return "intra-node";
    case LinkClass::switch_fabric: return "switch";
    case LinkClass::stack: return "stack";
    case LinkClass::other: break;
  }
  return "other";
}

LinkClass link_class_of(const LinkProperties& link) {
  if (!link.role) return LinkClass::other;
  switch (*link.role) {
    case LinkRole::nic: return LinkClass::nic;
    case LinkRole::bus:
    case LinkRole::gpu_port:
    case LinkRole::pcie_switch:
    case LinkRole::host_pcie: return LinkClass::intra_node;
    case LinkRole::switch_link:
    case LinkRole::uplink:
    case LinkRole::spine:
    case LinkRole::rail_leaf:
    case LinkRole::rail_uplink:
    case LinkRole::rail_spine: return LinkClass::switch_fabric;
    case LinkRole::stack: return LinkClass::stack;
    case LinkRole::background: break;
  }
  return LinkClass::other;
}

CollectiveTraffic route_traffic(TopologyRoutes& routes, const std::vector<std::string>& hosts, const std::vector<PairFlow>& flows,
                                std::uint64_t bytes) {
  std::map<LinkUse, LinkTraffic> per_use;
  for (const PairFlow& flow : flows)
    for (const LinkUse& use : routes.route(hosts.at(flow.from), hosts.at(flow.to)).hops) {
      LinkTraffic& traffic = per_use[use];
      if (traffic.flows == 0) {
        const LinkProperties& link = routes.link(use.link);
        traffic = {use, link_class_of(link), 0, 0, routes.bandwidth_of(use), link.contended};
      }
      ++traffic.flows;
      traffic.bytes += flow.bytes;
    }
  CollectiveTraffic traffic{static_cast<int>(hosts.size()), bytes, flows.size(), {}, {}};
  std::map<LinkClass, LinkTraffic> busiest;
  for (const auto& [use, link] : per_use) {
    traffic.links.push_back(link);
    auto [it, first] = busiest.emplace(link.link_class, link);
    if (!first && link.bytes > it->second.bytes) it->second = link;
  }
  for (const auto& [link_class, link] : busiest) traffic.busiest.push_back(link);
  return traffic;
}

}  // namespace ringsim
