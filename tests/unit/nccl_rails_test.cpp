// NCCL's channel rings over rails (sim/rank/nccl_channel_rings.h) and the bus bandwidth they give a
// placement (sim/nccl/nccl_rails.h), against rings and sums worked by hand.
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/analysis/algorithm_costs.h"
#include "../../sim/nccl/nccl_rails.h"
#include "../../sim/nccl/tuning/nccl_ring_model.h"
#include "../../sim/platform/topology.h"
#include "../../sim/rank/nccl_channel_rings.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

using Rings = std::vector<std::vector<int>>;

// NODES nodes of GPUS GPUs with NIC_OF_GPU beside them, NIC_GBPS each, GPU ports of PORT_GBPS (0: bus).
NcclTopologyFacts facts_of(int nodes, const std::vector<int>& nic_of_gpu, double nic_GBps, double port_GBps) {
  NcclTopologyFacts facts;
  for (int n = 0; n < nodes; ++n) {
    NcclNodeFacts& node = facts.nodes.emplace_back();
    node.nic_bandwidth_Bps = nic_GBps * 1e9;
    node.port_bandwidth_Bps = port_GBps * 1e9;
    node.nic_beside_gpu = nic_of_gpu;
    int nics = 0;
    for (std::size_t g = 0; g < nic_of_gpu.size(); ++g) {
      node.nic_of_gpu.push_back(nic_of_gpu[g] < 0 ? 0 : nic_of_gpu[g]);
      nics = std::max(nics, nic_of_gpu[g] + 1);
      node.port_links.push_back("node" + std::to_string(n) + "-gpu" + std::to_string(g) + "-nvlink");
    }
    for (int k = 0; k < nics; ++k) node.nic_links.push_back("node" + std::to_string(n) + "-nic" + std::to_string(k));
  }
  return facts;
}

PlacementSpec block(std::vector<int> ranks_per_node) { return PlacementSpec{std::move(ranks_per_node)}; }

}  // namespace

TEST_CASE("one NIC per node: every channel's ring is node-contiguous in rank order") {
  const std::vector<int> nodes{0, 1, 0, 1, 2};  // cyclic 2-2-1
  CHECK(nccl_channel_rings(5, nodes, {}, 2) == Rings{{0, 2, 1, 3, 4}, {0, 2, 1, 3, 4}});
  CHECK(nccl_search_rails(nodes, {}) == 1);
}

TEST_CASE("a NIC per GPU: channel c enters each node beside NIC c mod k and leaves beside the NIC before it") {
  // Two nodes of 4 ranks, rank i of a node beside NIC i.
  const std::vector<int> nodes{0, 0, 0, 0, 1, 1, 1, 1}, rails{0, 1, 2, 3, 0, 1, 2, 3};
  const Rings rings = nccl_channel_rings(8, nodes, rails, 4);
  CHECK(rings[0] == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(rings[1] == std::vector<int>{1, 2, 3, 0, 5, 6, 7, 4});
  CHECK(rings[3] == std::vector<int>{3, 0, 1, 2, 7, 4, 5, 6});
  CHECK(nccl_search_rails(nodes, rails) == 4);
}

TEST_CASE("GPUs sharing a NIC pairwise: a channel enters and leaves through the same NIC, GPUs without one stay inside") {
  const std::vector<int> nodes{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, rails{0, 0, 1, 1, -1, 0, 0, 1, 1, -1};
  const Rings rings = nccl_channel_rings(10, nodes, rails, 2);
  CHECK(rings[0] == std::vector<int>{0, 4, 2, 3, 1, 5, 9, 7, 8, 6});
  CHECK(rings[1] == std::vector<int>{2, 4, 0, 1, 3, 7, 9, 5, 6, 8});
  CHECK(nccl_search_rails(nodes, rails) == 2);
}

TEST_CASE("the search finds as many channels on every node as on the node with the fewest NICs beside its ranks") {
  // 4-2-2 on nodes with a NIC per GPU.
  CHECK(nccl_search_rails({0, 0, 0, 0, 1, 1, 2, 2}, {0, 1, 2, 3, 0, 1, 0, 1}) == 2);
}

TEST_CASE("bus bandwidth: k ranks beside k NICs give k NICs' worth, up to the GPUs' NVLink ports") {
  // 10 nodes, 8 GPUs each beside their own 50 GB/s NIC, 300 GB/s NVSwitch ports; 2 channels per NIC used.
  const NcclTopologyFacts facts = facts_of(10, {0, 1, 2, 3, 4, 5, 6, 7}, 50, 300);
  for (int k : {1, 2, 4}) {
    const NcclRailUse use = nccl_rail_use(facts, block(std::vector<int>(10, k)), 2 * k, false);
    CHECK(use.search_channels == k);
    CHECK(use.bus_bandwidth_Bps == doctest::Approx(k * 50e9));
  }
  // 8 per node: each port carries 14 of 16 channels' hops (the exit GPU sends through its NIC), each
  // NIC direction 2 of 16: the ports bind at 300 x 16/14.
  const NcclRailUse eight = nccl_rail_use(facts, block(std::vector<int>(10, 8)), 16, false);
  CHECK(eight.bus_bandwidth_Bps == doctest::Approx(300e9 * 16 / 14));
  CHECK(eight.bottleneck.find("nvlink") != std::string::npos);
  // Every channel crosses every node once, in beside its NIC and out beside the previous one.
  CHECK(eight.crossings.size() == 16u * 10u);
  CHECK(eight.crossings.front().nic_in == 0);
  CHECK(eight.crossings.front().nic_out == 7);
}

TEST_CASE("bus bandwidth: GPUs that share NICs pairwise get half of one NIC per GPU at the same ranks per node") {
  const NcclTopologyFacts own = facts_of(4, {0, 1, 2, 3}, 25, 300);
  const NcclTopologyFacts shared = facts_of(4, {0, 0, 1, 1}, 25, 300);
  const double per_gpu = nccl_rail_use(own, block({4, 4, 4, 4}), 8, false).bus_bandwidth_Bps;
  const double pairwise = nccl_rail_use(shared, block({4, 4, 4, 4}), 4, false).bus_bandwidth_Bps;
  CHECK(per_gpu == doctest::Approx(100e9));
  CHECK(pairwise == doctest::Approx(per_gpu / 2));
}

TEST_CASE("NCCL's closed form counts the NICs beside the placement's ranks, not every NIC of the node") {
  ModelSettings model;
  model.nccl = NcclSettings{};
  model.nccl->set_version({2, 29});
  model.nccl_facts = facts_of(10, {0, 1, 2, 3, 4, 5, 6, 7}, 50, 300);
  const auto one = nccl_case_of(model, block(std::vector<int>(10, 1)));
  REQUIRE(one);
  CHECK(one->search_channels == 1);
  CHECK(one->channels == 2);
  // The wire alone: 2 x 9/10 x 1 GiB at 50 GB/s = 38.65 ms; NCCL adds its latency.
  const double t = nccl_ring_time(*one, NcclProtocol::simple, 1ULL << 30).time_s;
  CHECK(t > 2.0 * 9 / 10 * (1ULL << 30) / 50e9);
  CHECK(t < 1.01 * 2.0 * 9 / 10 * (1ULL << 30) / 50e9);
  const auto four = nccl_case_of(model, block(std::vector<int>(10, 4)));
  REQUIRE(four);
  CHECK(four->search_channels == 4);
  CHECK(four->channels == 8);
  CHECK(four->search_channels * four->channel_bandwidth_Bps == doctest::Approx(200e9));
}

TEST_CASE("bus bandwidth: GPUs staging through host memory in pairs behind a PCIe switch get half its uplink") {
  // 8 nodes of 4 GPUs without peer-to-peer (12 GB/s ports), one 12.4 GB/s NIC, GPUs 0-1 and 2-3 behind
  // a 12 GB/s switch uplink. Per channel the ring 0 1 2 3 crosses switch 0's uplink up twice (0->1,
  // 1->2) and, staging the network receive in host memory, down twice (net->0, 0->1).
  NcclTopologyFacts facts = facts_of(8, {0, 0, 0, 0}, 12.4, 12);
  for (NcclNodeFacts& node : facts.nodes) {
    node.switch_of_gpu = {0, 0, 1, 1};
    node.switch_links = {"pcie-switch0", "pcie-switch1"};
    node.switch_bandwidth_Bps = 12e9;
    node.gdr = false;
  }
  const NcclRailUse use = nccl_rail_use(facts, block(std::vector<int>(8, 4)), 2, false);
  CHECK(use.bus_bandwidth_Bps == doctest::Approx(6e9));
  CHECK(use.bottleneck.find("pcie-switch") != std::string::npos);
  for (NcclNodeFacts& node : facts.nodes) node.switch_of_gpu = {-1, -1, -1, -1};
  CHECK(nccl_rail_use(facts, block(std::vector<int>(8, 4)), 2, false).bus_bandwidth_Bps == doctest::Approx(12e9));  // the ports
}

TEST_CASE("bus bandwidth: NVLink GPUs staging through host memory cross their own PCIe link, not their NVLink port") {
  // 2 nodes of 8 GPUs on 150 GB/s NVLink ports, one 12.4 GB/s NIC beside no GPU (AWS p3dn), each GPU's
  // PCIe link to host memory 8 GB/s. The ring leaves each node from its last GPU and enters at its first;
  // per channel GPU 7's PCIe link carries the staged send up once and GPU 0's the receive down once, so
  // with 2 channels the bus gets 8 x 2 / 2 = 8 GB/s; the ports carry the hops inside the node only.
  NcclTopologyFacts facts = facts_of(2, std::vector<int>(8, -1), 12.4, 150);
  for (NcclNodeFacts& node : facts.nodes) {
    node.nic_links = {"node-nic"};
    node.gdr = false;
    node.host_pcie_bandwidth_Bps = 8e9;
    for (int g = 0; g < 8; ++g) node.host_pcie_links.push_back("node-gpu" + std::to_string(g) + "-host-pcie");
  }
  const NcclRailUse staged = nccl_rail_use(facts, block({8, 8}), 2, false);
  CHECK(staged.search_channels == 1);
  CHECK(staged.bus_bandwidth_Bps == doctest::Approx(8e9));
  CHECK(staged.bottleneck.find("-host-pcie") != std::string::npos);
  for (NcclNodeFacts& node : facts.nodes) node.gdr = true;
  CHECK(nccl_rail_use(facts, block({8, 8}), 2, false).bus_bandwidth_Bps == doctest::Approx(12.4e9));  // the NIC
}

TEST_CASE("on a 4:1 rail fabric NCCL's rings without PXN cross rails at every node and the spine's uplinks halve the bus, while PXN keeps them on one rail") {
  // rails-4x8-400G: 8 x 400 Gb/s (50 GB/s) NICs a node, each rail leaf's uplink 400 Gb/s for its four
  // NICs. Placement 8-8: 16 channels; channel c enters each node at GPU c mod 8 and leaves from
  // GPU c-1 mod 8 (nccl_channel_rings.h), so each hop between the nodes goes from rail c-1 to rail c.
  const NcclTopologyFacts facts = nccl_topology_facts(load_topology(RINGSIM_SOURCE_DIR "/topologies/rails-4x8-400G.json"));
  REQUIRE(facts.rail_fabric.has_value());
  const NcclRailUse direct = nccl_rail_use(facts, block({8, 8}), 16, false);
  // Rail k's uplink up carries the hops out of rail k: channels k+1 and k+9, each once from either
  // node: 4 of 16 channels, so the bus is 50 GB/s x 16 / 4 = 200 GB/s.
  CHECK(direct.bus_bandwidth_Bps == doctest::Approx(200e9));
  CHECK(direct.bottleneck == "rail0-leaf-uplink down");
  // Under PXN the hop leaves through the NIC of rail c on the sending node (its NVLink peer's): each
  // NIC direction carries 2 of 16 channels, 50 GB/s x 16 / 2 = 400 GB/s, the eight NICs' full rate.
  const NcclRailUse pxn = nccl_rail_use(facts, block({8, 8}), 16, true);
  CHECK(pxn.bus_bandwidth_Bps == doctest::Approx(400e9));
  CHECK(pxn.bottleneck.find("-nic") != std::string::npos);
  // A spine of 100 GB/s shared by both directions carries every one of the 2 x 16 hops between rails:
  // 100 x 16 / 32 = 50 GB/s.
  NcclTopologyFacts narrow_spine = facts;
  narrow_spine.rail_fabric->spine_bandwidth_Bps = 100e9;
  const NcclRailUse spine_bound = nccl_rail_use(narrow_spine, block({8, 8}), 16, false);
  CHECK(spine_bound.bus_bandwidth_Bps == doctest::Approx(50e9));
  CHECK(spine_bound.bottleneck == "rail-spine");
  // One rank per node sits beside NIC 0 at both ends: no hop crosses rails, with or without PXN.
  CHECK(nccl_rail_use(facts, block({1, 1, 1, 1}), 2, false).bus_bandwidth_Bps == doctest::Approx(50e9));
}
