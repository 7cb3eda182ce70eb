// NCCL's double binary tree (sim/rank/nccl_trees.h) against ncclGetDtree worked by hand, its time
// model (sim/nccl/tuning/nccl_tree_costs.h) and the algorithm and protocol NCCL's model picks per size
// (sim/nccl/tuning/nccl_choice.h) against numbers worked by hand from src/graph/tuning.cc of each era
// (microseconds and GB/s, as tuning.cc counts them).
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/nccl/tuning/nccl_choice.h"
#include "../../sim/nccl/tuning/nccl_intra_search.h"
#include "../../sim/nccl/tuning/nccl_nvls_costs.h"
#include "../../sim/nccl/tuning/nccl_tree_costs.h"
#include "../../sim/rank/nccl_channel_rings.h"
#include "../../sim/rank/nccl_trees.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// The 100 Gb/s InfiniBand fixture cluster (validate/traces/nccl/): 8 nodes x 4 GPUs on PCIe, one
// 12.5 GB/s NIC per node, so one search channel at 12.5 GB/s; Volta-class GPUs unless set.
NcclCase ib_case(int major, int minor, int ranks = 32, int nodes = 8, int capability = 70) {
  NcclCase c;
  c.set_version({major, minor});
  c.compute_capability = capability;
  c.ranks = ranks;
  c.nodes = nodes;
  c.search_channels = 1;
  c.channel_bandwidth_Bps = 12.5e9;
  c.channels = 2;
  return c;
}

std::string pick(const NcclCase& c, std::uint64_t bytes) {
  return nccl_choice_text(nccl_choose(c, NcclProtocol::auto_choice, bytes));
}

}  // namespace

TEST_CASE("ncclGetDtree: a binary tree over the nodes and its shifted (even) or mirrored (odd) twin") {
  const auto same = [](NodeTreeLinks a, NodeTreeLinks b) { return a.parent == b.parent && a.child0 == b.child0 && a.child1 == b.child1; };
  CHECK(same(nccl_double_tree(8, 0, 0), {-1, 4, -1}));
  CHECK(same(nccl_double_tree(8, 4, 0), {0, 2, 6}));
  CHECK(same(nccl_double_tree(8, 2, 0), {4, 1, 3}));
  CHECK(same(nccl_double_tree(8, 7, 0), {6, -1, -1}));
  // Shifted by one: node 1 is the root, node 0 (tree 0's root) a leaf.
  CHECK(same(nccl_double_tree(8, 1, 1), {-1, 5, -1}));
  CHECK(same(nccl_double_tree(8, 0, 1), {7, -1, -1}));
  // Five nodes: node 4's right child would be 6, then 5, both past the end.
  CHECK(same(nccl_double_tree(5, 4, 0), {0, 2, -1}));
  CHECK(same(nccl_double_tree(5, 0, 1), {4, 2, -1}));  // mirrored: node 4 - n of tree 0's node 4
  CHECK(nccl_tree_depth(32, 8) == 3 + 3);
}

TEST_CASE("tree links: a chain in each node, the head to the parent node, the next GPU to the child nodes") {
  const std::vector<int> nodes{0, 0, 0, 1, 1, 1};
  const auto tree0 = nccl_tree_links(6, nodes, 0);
  CHECK(tree0[0].parent == -1);
  CHECK(tree0[1].parent == 0);
  CHECK(tree0[2].parent == 1);
  CHECK(tree0[3].parent == 1);  // node 1's head under node 0's second GPU
  CHECK(tree0[1].children == std::vector<int>{2, 3});
  CHECK(tree0[5].children.empty());
  const auto tree1 = nccl_tree_links(6, nodes, 1);  // node 1 is the root
  CHECK(tree1[3].parent == -1);
  CHECK(tree1[0].parent == 4);
  CHECK(tree1[4].children == std::vector<int>{5, 0});
  CHECK(nccl_tree_of_channel(0, 2) == 0);
  CHECK(nccl_tree_of_channel(1, 2) == 1);
  CHECK(nccl_tree_of_channel(0, 1) == 0);
}

TEST_CASE("tree links: a channel's ring orders each node's chain, so the chain starts beside the channel's NIC") {
  // Two nodes of 4 GPUs, a NIC beside each: channel 1's ring enters each node at its second GPU.
  const std::vector<int> nodes{0, 0, 0, 0, 1, 1, 1, 1};
  const std::vector<int> rails{0, 1, 2, 3, 0, 1, 2, 3};
  const auto rings = nccl_channel_rings(8, nodes, rails, 2);
  const auto tree = nccl_tree_links(8, nodes, 0, rings[1]);
  CHECK(tree[1].parent == -1);  // node 0's chain: 1, 2, 3, 0
  CHECK(tree[2].parent == 1);
  CHECK(tree[0].parent == 3);
  CHECK(tree[5].parent == 2);  // node 1's head under node 0's second GPU of the chain
  CHECK(tree[2].children == std::vector<int>{3, 5});
  // No order given: rank order, as before.
  CHECK(nccl_tree_links(8, nodes, 0)[0].parent == -1);
}

TEST_CASE("NCCL 2.6 tree on 8 x 4: LL 4.4 + 2(3 x 1.0 + 3 x 5.0) us, Simple 2(3 x 28 + 3 x 50) us, 0.9 x 12.5 GB/s / 2") {
  const NcclCase c = ib_case(2, 6);
  const NcclPrediction ll = nccl_tree_time(c, NcclProtocol::ll, 4);
  CHECK(ll.latency_s * 1e6 == doctest::Approx(40.4));
  CHECK(ll.algbw_Bps == doctest::Approx(11.25e9 / 3 / 2));  // correction 1.0 below 1 KiB
  const NcclPrediction simple = nccl_tree_time(c, NcclProtocol::simple, 64u << 20);
  CHECK(simple.latency_s * 1e6 == doctest::Approx(468));
  CHECK(simple.algbw_Bps == doctest::Approx(11.25e9 / 2 * 0.8));  // log2(64 MiB / 64) = 20: 0.8
  // The mechanics alone: no 0.9 and no correction.
  CHECK(nccl_tree_core_time(c, NcclProtocol::simple, 64u << 20).algbw_Bps == doctest::Approx(12.5e9 / 2));
}

TEST_CASE("NCCL 2.20 tree on 8 x 4 with a network plugin's 75 us: each network hop pays it, twice under Simple") {
  NcclCase c = ib_case(2, 20);
  c.net_latency_us = 75;
  CHECK(nccl_tree_time(c, NcclProtocol::ll, 4).latency_s * 1e6 == doctest::Approx(6.8 + 2 * (3 * 1.0 + 3 * (5.0 + 75))));
  CHECK(nccl_tree_time(c, NcclProtocol::simple, 4).latency_s * 1e6 == doctest::Approx(2 * (3 * 28 + 3 * (28 + 150))));
}

TEST_CASE("nccl_tree's hop to another node: NCCL's tree network hop less its ring's, LL and LL128, per era") {
  // 2.5-2.6: 5.0 - 0.9 and 7.5 - 2.5 us; 2.7 on: 5.0 - 2.7 and 8.5 - 4.0; 2.23 on with one rank per
  // node the ring's step is the tree's own, so nothing.
  const NcclTreeHops v26 = nccl_tree_hops(ib_case(2, 6));
  CHECK(v26.ll_s * 1e6 == doctest::Approx(4.1));
  CHECK(v26.ll128_s * 1e6 == doctest::Approx(5.0));
  const NcclTreeHops v218 = nccl_tree_hops(ib_case(2, 18));
  CHECK(v218.ll_s * 1e6 == doctest::Approx(2.3));
  CHECK(v218.ll128_s * 1e6 == doctest::Approx(4.5));
  CHECK(nccl_tree_hops(ib_case(2, 29)).ll_s * 1e6 == doctest::Approx(2.3));
  const NcclTreeHops one_per_node = nccl_tree_hops(ib_case(2, 29, 8, 8));
  CHECK(one_per_node.ll_s == 0);
  CHECK(one_per_node.ll128_s == 0);
}

TEST_CASE("NCCL 2.6 on 8 x 4: Tree/LL up to about 69 KiB, Ring/LL up to about 752 KiB, then Ring/Simple") {
  const NcclCase c = ib_case(2, 6);
  // Tree/LL 40.4 + S / (1.875 GB/s x 0.6) against Ring/LL 59.4 + S / (3.125 GB/s x 32/62): equal at 70,661 B.
  CHECK(pick(c, 4) == "Tree/LL");
  CHECK(pick(c, 64 << 10) == "Tree/LL");
  CHECK(pick(c, 72 << 10) == "Ring/LL");
  CHECK(pick(c, 512 << 10) == "Ring/LL");
  // Ring/LL against Ring/Simple 417.6 + S / (12.5 GB/s x 32/62): equal at 770,322 B.
  CHECK(pick(c, 736 << 10) == "Ring/LL");
  CHECK(pick(c, 768 << 10) == "Ring/Simple");
  CHECK(pick(c, 1u << 30) == "Ring/Simple");
}

TEST_CASE("NCCL 2.7 on 8 x 4: the tree's correction steps it out at 128 KiB and in again for Simple near 1.5 MiB") {
  const NcclCase c = ib_case(2, 7);
  // Tree/LL 4.4 + 2(3 x 1.8 + 3 x 5.0) = 45.2 us at 11.25/3.8/2 GB/s x correction; Ring/LL 127.8 us.
  CHECK(nccl_tree_time(c, NcclProtocol::ll, 4).latency_s * 1e6 == doctest::Approx(45.2));
  CHECK(nccl_tree_time(c, NcclProtocol::ll, 4).algbw_Bps == doctest::Approx(11.25e9 / 3.8 / 2));
  CHECK(pick(c, 96 << 10) == "Tree/LL");   // correction 0.6: 155.9 against Ring/LL 188.8 us
  CHECK(pick(c, 128 << 10) == "Ring/LL");  // correction 0.5: 222.3 against 209.1 us
  CHECK(pick(c, 1u << 20) == "Ring/LL");
  // Tree/Simple 468 + S / 2.8125 GB/s beats Ring/LL from 1,286,500 B and Ring/Simple (791.16 us with
  // the plateau) up to 1,611,300 B.
  CHECK(pick(c, 1536 << 10) == "Tree/Simple");
  CHECK(pick(c, 2u << 20) == "Ring/Simple");
}

TEST_CASE("NCCL 2.8-2.17: the per-channel cap (Volta 10 GB/s on more than 2 nodes) and a 28 us network hop") {
  const NcclCase c = ib_case(2, 14);
  const NcclPrediction simple = nccl_tree_time(c, NcclProtocol::simple, 1u << 30);
  CHECK(simple.latency_s * 1e6 == doctest::Approx(2 * (3 * 28 + 3 * 28)));
  CHECK(simple.algbw_Bps == doctest::Approx(10e9 / 2));  // min(0.92 x 12.5, 1 channel x 10) / 2; no correction at 1 GiB
  const NcclPrediction ll = nccl_tree_time(c, NcclProtocol::ll, 4);
  CHECK(ll.latency_s * 1e6 == doctest::Approx(4.4 + 2 * (3 * 1.8 + 3 * 5.0)));
  CHECK(ll.algbw_Bps == doctest::Approx(10e9 / 3.8 / 2));
  // Ampere from 2.10: 17.8 GB/s per channel, so 0.92 x 12.5 = 11.5 GB/s applies.
  CHECK(nccl_tree_time(ib_case(2, 14, 32, 8, 80), NcclProtocol::simple, 1u << 30).algbw_Bps == doctest::Approx(11.5e9 / 2));
  CHECK(nccl_tree_time(ib_case(2, 8, 32, 8, 80), NcclProtocol::simple, 1u << 30).algbw_Bps == doctest::Approx(11.5e9 / 2));
}

TEST_CASE("NCCL 2.9 on two p4d nodes: LL128 across nodes where each GPU's NIC is on its PCIe switch, Ring/LL128 to 32 MiB") {
  // 16 A100 ranks on 2 NVSwitch nodes, 4 NICs of 12.5 GB/s each beside two GPUs (GPUDirect RDMA):
  // 4 search channels, 50 GB/s of bus. tuning.cc enables LL128 where typeInter <= PXB and typeIntra is NVLink.
  NcclCase c = ib_case(2, 9, 16, 2, 80);
  c.search_channels = 4;
  c.channels = 8;
  c.nvlink = true;
  CHECK_FALSE(nccl_protocol_enabled(c, NcclProtocol::ll128));  // the NIC behind the CPU
  c.nic_beside_gpu = true;
  REQUIRE(nccl_protocol_enabled(c, NcclProtocol::ll128));
  // Ring/LL128: 10 + 28 x 1.9 + 2 x 4.0 = 71.2 us at min(0.92 x 50, 4 x 16.9) x 16/30 GB/s.
  const NcclPrediction ring = nccl_ring_time(c, NcclProtocol::ll128, 8u << 20);
  CHECK(ring.latency_s * 1e6 == doctest::Approx(71.2));
  CHECK(ring.algbw_Bps == doctest::Approx(46e9 * 16 / 30));
  // Tree/LL128: 4.4 + 2(7 x 1.25 + 8.5) = 38.9 us.
  CHECK(nccl_tree_time(c, NcclProtocol::ll128, 1u << 30).latency_s * 1e6 == doctest::Approx(4.4 + 2 * (7 * 1.25 + 8.5)));
  CHECK(pick(c, 32 << 10) == "Tree/LL");      // 35.2 us
  CHECK(pick(c, 64 << 10) == "Ring/LL");      // 42.5 us
  CHECK(pick(c, 128 << 10) == "Tree/LL128");  // 49.3 us
  CHECK(pick(c, 1u << 20) == "Ring/LL128");   // 113.9 us
  CHECK(pick(c, 32u << 20) == "Ring/LL128");  // 1438.9 us against Ring/Simple 1491.6
  CHECK(pick(c, 64u << 20) == "Ring/Simple");
  // Without LL128 Ring/LL holds to 1 MiB and Simple follows.
  c.nic_beside_gpu = false;
  CHECK(pick(c, 1u << 20) == "Ring/LL");
  CHECK(pick(c, 8u << 20) == "Ring/Simple");
  // Hopper's LL128 came with 2.16; Volta's alone before 2.7.
  NcclCase hopper = c;
  hopper.nic_beside_gpu = true;
  hopper.compute_capability = 90;
  CHECK_FALSE(nccl_protocol_enabled(hopper, NcclProtocol::ll128));
  hopper.set_version({2, 16});
  CHECK(nccl_protocol_enabled(hopper, NcclProtocol::ll128));
}

TEST_CASE("NCCL 2.8 on: the ring's LL capped at llMaxBws (39 GB/s across 2 Intel nodes) but not in 2.7") {
  NcclCase c = ib_case(2, 8, 16, 2, 80);
  c.search_channels = 16;  // 200 GB/s of bus: a quarter is 50 GB/s, above the cap
  CHECK(nccl_ring_time(c, NcclProtocol::ll, 4).algbw_Bps == doctest::Approx(39e9 * 16 / 30));
  c.set_version({2, 7});
  CHECK(nccl_ring_time(c, NcclProtocol::ll, 4).algbw_Bps == doctest::Approx(50e9 * 16 / 30));
  // LL128's per-channel maximum for allreduce: 16.7 GB/s in 2.7, 16.9 in 2.8-2.9, 20 from 2.10.
  c.nvlink = true;
  c.search_channels = 1;
  c.channel_bandwidth_Bps = 300e9;
  CHECK(nccl_ring_time(c, NcclProtocol::ll128, 4).algbw_Bps == doctest::Approx(16.7e9 * 16 / 30));
  c.set_version({2, 9});
  CHECK(nccl_ring_time(c, NcclProtocol::ll128, 4).algbw_Bps == doctest::Approx(16.9e9 * 16 / 30));
  c.set_version({2, 10});
  CHECK(nccl_ring_time(c, NcclProtocol::ll128, 4).algbw_Bps == doctest::Approx(20e9 * 16 / 30));
}

TEST_CASE("NCCL 2.18, 2.19-2.22 and 2.23 on: the tree's latencies of each era, and x 0.85 with one GPU per node from 2.19") {
  CHECK(nccl_tree_time(ib_case(2, 18, 32, 8, 80), NcclProtocol::simple, 1u << 30).latency_s * 1e6 ==
        doctest::Approx(2 * (3 * 6 + 3 * 14)));
  CHECK(nccl_tree_time(ib_case(2, 20, 32, 8, 80), NcclProtocol::simple, 1u << 30).latency_s * 1e6 ==
        doctest::Approx(2 * (3 * 28 + 3 * 28)));
  CHECK(nccl_tree_time(ib_case(2, 20, 32, 8, 80), NcclProtocol::ll, 4).latency_s * 1e6 ==
        doctest::Approx(6.8 + 2 * (3 * 1.0 + 3 * 5.0)));  // LL's intra-node hop no longer x 1.8
  CHECK(nccl_tree_time(ib_case(2, 23, 32, 8, 80), NcclProtocol::simple, 1u << 30).latency_s * 1e6 ==
        doctest::Approx(8.4 + 2 * (3 * 4 + 3 * 14)));
  const NcclCase one_per_node = ib_case(2, 20, 16, 16, 80);
  CHECK(nccl_tree_time(one_per_node, NcclProtocol::simple, 1u << 30).algbw_Bps == doctest::Approx(11.5e9 * 0.85 / 2));
  CHECK(nccl_tree_time(ib_case(2, 18, 16, 16, 80), NcclProtocol::simple, 1u << 30).algbw_Bps == doctest::Approx(11.5e9 / 2));
}

TEST_CASE("NCCL 2.23 on 8 x 4 Ampere: Tree/LL for small sizes, and the ring for large ones") {
  const NcclCase c = ib_case(2, 23, 32, 8, 80);
  CHECK(pick(c, 4) == "Tree/LL");
  CHECK(pick(c, 1u << 30) == "Ring/Simple");
  // 2.4 had no such model: ring only.
  CHECK(pick(ib_case(2, 4), 4) == "Ring/LL");
}

namespace {

// One HGX H100 node: 8 GPUs, 18 NVLink 4 links each into the NVSwitches (NCCL's 20.6 GB/s per link
// from 2.21: 370.8 GB/s), the ring's search 6 channels at 60 GB/s run as 12 at 30 (nccl_intra_search.h).
NcclCase h100_node(int major, int minor, int gpus = 8) {
  NcclCase c;
  c.set_version({major, minor});
  c.compute_capability = 90;
  c.ranks = gpus;
  c.nodes = 1;
  c.nvlink = true;
  const NcclIntraSearch ring = nccl_nvswitch_search(*c.release, 90, 18);
  c.search_channels = ring.channels;
  c.channel_bandwidth_Bps = ring.bandwidth_GBps * 1e9;
  c.channels = 2 * ring.channels;
  const NcclIntraSearch nvls = nccl_nvls_search(*c.release, 90, 18, gpus);
  c.nvls_channels = nvls.channels;
  c.nvls_channel_Bps = nvls.bandwidth_GBps * 1e9;
  return c;
}

}  // namespace

TEST_CASE("NVLS search: one channel per GPU at the fastest speed whose GPUs + 1 shares fit a GPU's NVLink") {
  // H100, 2.29: 370.8 GB/s; 9 x 40 fits, 9 x 50 does not. 4 GPUs: 5 x 60 fits. B200 (2.28, 18 x 40.1 =
  // 721.8): 9 x 80 fits. 2.18's Hopper list (60, 40, ...) with 20 GB/s links: 9 x 40 = 360 fits.
  CHECK(nccl_nvls_search(nccl_release_of({2, 29}), 90, 18, 8).channels == 8);
  CHECK(nccl_nvls_search(nccl_release_of({2, 29}), 90, 18, 8).bandwidth_GBps == doctest::Approx(40));
  CHECK(nccl_nvls_search(nccl_release_of({2, 29}), 90, 18, 4).bandwidth_GBps == doctest::Approx(60));
  CHECK(nccl_nvls_search(nccl_release_of({2, 28}), 100, 18, 8).bandwidth_GBps == doctest::Approx(80));
  CHECK(nccl_nvls_search(nccl_release_of({2, 18}), 90, 18, 8).bandwidth_GBps == doctest::Approx(40));
}

TEST_CASE("NCCL's NVLS model per era on one H100 node, 1 GiB") {
  const double bytes = 1u << 30;
  // 2.28 on: busbw 8 x 40 x 0.85 x 7/8 x 2 = 476 GB/s, algbw x 8/14 = 272; 25 us.
  CHECK(nccl_nvls_time(h100_node(2, 29), 1u << 30).time_s * 1e6 == doctest::Approx(25 + bytes / 272e3).epsilon(1e-6));
  // 2.21-2.27: algbw 5/6 x 8 x 40 = 266.7 GB/s; 25 us. 2.19-2.20: 23 us.
  CHECK(nccl_nvls_time(h100_node(2, 23), 1u << 30).time_s * 1e6 == doctest::Approx(25 + bytes / (5.0 / 6 * 320e3)).epsilon(1e-6));
  CHECK(nccl_nvls_time(h100_node(2, 19), 1u << 30).latency_s * 1e6 == doctest::Approx(23));
  // 2.18: 0.75 x 8 x 40 = 240 GB/s, 23 us; 2.17: 0.75 x the ring's bus bandwidth (22 GB/s per link
  // before 2.18: 396; 6 channels at 66, run as 12 at 33) and 40 us.
  CHECK(nccl_nvls_time(h100_node(2, 18), 1u << 30).algbw_Bps == doctest::Approx(240e9));
  CHECK(nccl_nvls_time(h100_node(2, 17), 1u << 30).latency_s * 1e6 == doctest::Approx(40));
  CHECK(nccl_nvls_time(h100_node(2, 17), 1u << 30).algbw_Bps == doctest::Approx(0.75 * 396e9));
}

TEST_CASE("nccl picks NVLS on one H100 node from about 1 MiB (2.29: Ring/LL's 15 us + S / 80.6 GB/s against 25 us + S / 272)") {
  // Ring/LL: 6.6 + 14 x 0.6 us, busbw min(141, 0.5 x 360) = 141, algbw 80.6 GB/s; they cross at 10 us /
  // (1/80.6 - 1/272 per GB/s) = 1.15 MB.
  const NcclCase c = h100_node(2, 29);
  CHECK(pick(c, 512u << 10) == "Ring/LL");
  CHECK(pick(c, 2u << 20) == "NVLS/Simple");
  CHECK(pick(c, 1u << 30) == "NVLS/Simple");
  // Not on Ampere, not before 2.17, not across nodes.
  NcclCase a100 = h100_node(2, 29);
  a100.nvls_channels = 0;
  CHECK(pick(a100, 1u << 30) == "Ring/Simple");
}

TEST_CASE("NCCL's NVLS tree model per era on two and four H100 nodes of 8, 400 Gb/s NIC per GPU, 1 GiB") {
  NcclCase c = h100_node(2, 20);
  c.nodes = 2;
  c.ranks = 16;
  c.nvls_inter_Bps = 50e9;
  const double bytes = 1u << 30;
  // 2.19-2.27: 5/6 x 8 x min(40, 50) = 266.7 GB/s; 23 us + 2 x 1 x 14 us.
  CHECK(nccl_nvls_tree_time(c, 1u << 30).time_s * 1e6 == doctest::Approx(23 + 28 + bytes / (5.0 / 6 * 320e3)).epsilon(1e-6));
  // Four nodes: the network's half, min(40, 25) = 25; 2 x 2 hops.
  c.nodes = 4;
  c.ranks = 32;
  CHECK(nccl_nvls_tree_time(c, 1u << 30).algbw_Bps == doctest::Approx(5.0 / 6 * 8 * 25e9));
  CHECK(nccl_nvls_tree_time(c, 1u << 30).latency_s * 1e6 == doctest::Approx(23 + 4 * 14));
  // 2.29 on two nodes: per channel min(40 x 0.85 x 7/8 x 2 = 59.5, 50 x 2, Hopper's two-node cap 57.7) = 57.7,
  // x 8 channels, x 16/30 for algbw; 25 + 2 x 20.9 us.
  NcclCase d = h100_node(2, 29);
  d.nodes = 2;
  d.ranks = 16;
  d.nvls_inter_Bps = 50e9;
  CHECK(nccl_nvls_tree_time(d, 1u << 30).algbw_Bps == doctest::Approx(8 * 57.7e9 * 16 / 30));
  CHECK(nccl_nvls_tree_time(d, 1u << 30).latency_s * 1e6 == doctest::Approx(25 + 2 * 20.9));
  // 2.18: 0.70 x 8 x 40 (two nodes: bwIntra) x 2 / 2 = 224 GB/s; 23 + 2 x 19 us.
  NcclCase e = h100_node(2, 18);
  e.nodes = 2;
  e.ranks = 16;
  e.nvls_inter_Bps = 50e9;
  CHECK(nccl_nvls_tree_time(e, 1u << 30).algbw_Bps == doctest::Approx(224e9));
  CHECK(nccl_nvls_tree_time(e, 1u << 30).latency_s * 1e6 == doctest::Approx(23 + 38));
}
