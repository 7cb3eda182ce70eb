// Traffic per link of the collectives (sim/analysis/collective_traffic.h) against hand-worked flows
// and the closed forms' per-link traffic (docs/collectives.md).
#include "../../sim/analysis/collective_traffic.h"
#include "../../sim/model/placement.h"
#include "../../sim/platform/cluster_layout.h"
#include "../../sim/platform/topology.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace ringsim;

namespace {

constexpr std::uint64_t kTrafficSize = 16u << 20;

struct SeedRack {
  Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  Platform platform = load_platform(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  std::unique_ptr<TopologyRoutes> routes = routes_under_model(topology, PlatformModel{}, "seed-rack");

  CollectiveTraffic traffic(Collective collective, const char* algorithm, const PlacementSpec& placement) {
    const std::vector<std::string> hosts = hosts_of_ranks(placement, platform.layout);
    const auto flows = collective_flows(collective, algorithm, static_cast<int>(hosts.size()), kTrafficSize);
    REQUIRE(flows);
    return route_traffic(*routes, hosts, *flows, kTrafficSize);
  }
};

const LinkTraffic* find_link(const CollectiveTraffic& traffic, const std::string& link, const std::string& direction) {
  for (const LinkTraffic& use : traffic.links)
    if (use.use.link == link && use.use.direction == direction) return &use;
  return nullptr;
}

bool same_bytes(double value, double expected) { return std::abs(value - expected) <= 1e-9 * std::abs(expected); }

}  // namespace

TEST_CASE("alltoall's pair flows per NIC: c(N-c) of a node's c ranks, c(N-c)/N of S each way, for 4-2-2 and 4-3-1") {
  SeedRack seed;
  // 8 ranks: node c ranks exchange c(8-c) pair flows across its NIC. 4-2-2: 16, 12, 12; 4-3-1: 16, 15, 7.
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> cases{{{4, 2, 2}, {16, 12, 12}}, {{4, 3, 1}, {16, 15, 7}}};
  for (const auto& placement_and_flows : cases) {
    const std::vector<int> counts = placement_and_flows.first;
    const std::vector<int> flows = placement_and_flows.second;
    const CollectiveTraffic traffic = seed.traffic(Collective::alltoall, "pairwise", {counts, RankOrder::block});
    CAPTURE(counts);
    CHECK(traffic.flows == 56);
    for (int node = 0; node < 3; ++node)
      for (const char* direction : {"up", "down"}) {
        const std::string nic = "node" + std::to_string(node) + "-nic";
        const LinkTraffic* use = find_link(traffic, nic, direction);
        REQUIRE(use != nullptr);
        CHECK(use->link_class == LinkClass::nic);
        CHECK(use->flows == flows[node]);
        CHECK(same_bytes(use->bytes, flows[node] * double(kTrafficSize) / 8));
      }
    // The busiest NIC is node0's, 2 S out: 32 MiB at 16 MiB in both placements.
    const auto busiest_nic = std::find_if(traffic.busiest.begin(), traffic.busiest.end(),
                                          [](const LinkTraffic& link) { return link.link_class == LinkClass::nic; });
    REQUIRE(busiest_nic != traffic.busiest.end());
    CHECK(busiest_nic->use.link == "node0-nic");
    CHECK(same_bytes(busiest_nic->bytes, 2.0 * kTrafficSize));
  }
}

TEST_CASE("the ring collectives load each link direction with its ring edges times the bytes of one ring edge") {
  SeedRack seed;
  const PlacementSpec placement{{4, 2, 2}, RankOrder::cyclic};
  const std::vector<std::string> hosts = hosts_of_ranks(placement, seed.platform.layout);
  const RingEmbedding ring = embed_ring(*seed.routes, hosts);
  // All-gather and reduce-scatter: N-1 pieces of S/N per ring edge; allreduce twice that; sendrecv S.
  const std::vector<std::tuple<Collective, const char*, double>> per_edge{{Collective::all_gather, "ring", 7.0 / 8},
                                                                         {Collective::reduce_scatter, "ring", 7.0 / 8},
                                                                         {Collective::all_reduce, "ring", 14.0 / 8},
                                                                         {Collective::sendrecv, "ring", 1.0}};
  for (const auto& row : per_edge) {
    const Collective collective = std::get<0>(row);
    const double share = std::get<2>(row);
    const CollectiveTraffic traffic = seed.traffic(collective, std::get<1>(row), placement);
    CAPTURE(collective_name(collective));
    CHECK(traffic.links.size() == ring.ring_edges.size());
    for (const LinkTraffic& link : traffic.links) {
      const LinkTraffic copy = link;
      CAPTURE(copy.use.link);
      CHECK(copy.flows == ring.ring_edges.at(copy.use));
      CHECK(same_bytes(copy.bytes, copy.flows * share * double(kTrafficSize)));
    }
  }
  // Cyclic 4-2-2 deals ranks to nodes 0 1 2 0 1 2 0 0: of the ring edges leaving node0, 0->1 and 3->4
  // cross its NIC (6->7 and 7->0 stay inside), so all-gather sends 2 x 7/8 S out of it.
  const CollectiveTraffic gather = seed.traffic(Collective::all_gather, "ring", placement);
  const LinkTraffic* node0_out = find_link(gather, "node0-nic", "up");
  REQUIRE(node0_out != nullptr);
  CHECK(node0_out->flows == 2);
  CHECK(same_bytes(node0_out->bytes, 2 * 7.0 / 8 * kTrafficSize));
}

TEST_CASE("broadcast and reduce: the binomial tree's and the chain's hops, each carrying the whole buffer") {
  const auto broadcast = collective_flows(Collective::broadcast, "binomial", 8, kTrafficSize);
  REQUIRE(broadcast);
  std::vector<std::pair<int, int>> edges;
  for (const PairFlow& flow : *broadcast) {
    edges.emplace_back(flow.from, flow.to);
    CHECK(flow.bytes == double(kTrafficSize));
  }
  // Rank v receives from v less its lowest set bit: rank 0 sends ceil(lg 8) = 3 buffers.
  CHECK(edges == std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {2, 3}, {0, 4}, {4, 5}, {4, 6}, {6, 7}});
  const auto reduce = collective_flows(Collective::reduce, "chain", 4, kTrafficSize);
  REQUIRE(reduce);
  REQUIRE(reduce->size() == 3);
  CHECK(reduce->front().from == 1);
  CHECK(reduce->front().to == 0);
  CHECK(reduce->back().from == 3);
}

TEST_CASE("flows that are not modelled: all_reduce's algorithms other than the ring, and NCCL's rings") {
  CHECK_FALSE(collective_flows(Collective::all_reduce, "rabenseifner", 8, kTrafficSize));
  CHECK_FALSE(collective_flows(Collective::all_gather, "nccl_ring", 8, kTrafficSize));
  CHECK_FALSE(collective_flows(Collective::broadcast, "nccl_ring", 8, kTrafficSize));
  CHECK_FALSE(collective_flows(Collective::reduce, "nccl", 8, kTrafficSize));
  CHECK_FALSE(collective_flows(Collective::alltoall, "ring", 8, kTrafficSize));
  const auto alone = collective_flows(Collective::alltoall, "pairwise", 1, kTrafficSize);
  REQUIRE(alone);
  CHECK(alone->empty());
}
