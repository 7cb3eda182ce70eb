// NCCL's own time model of its ring (sim/analysis/algorithm_costs.h) against numbers worked by hand
// from src/graph/tuning.cc of each era (microseconds and GB/s, as tuning.cc counts them).
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/analysis/algorithm_costs.h"
#include "../../sim/nccl/tuning/nccl_intra_search.h"
#include "../../sim/nccl/tuning/nccl_enqueue_rules.h"
#include "../../sim/nccl/tuning/nccl_launch.h"
#include "../../sim/platform/topology.h"
#include "../../sim/rank/nvls_chunks.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

constexpr double kTenGbE = 1.25e9;  // bytes/s

NcclCase pcie_case(int major, int minor, int ranks, int nodes) {
  NcclCase c;
  c.set_version({major, minor});
  c.ranks = ranks;
  c.nodes = nodes;
  c.search_channels = 1;
  c.channel_bandwidth_Bps = kTenGbE;
  c.channels = 2;
  return c;
}

double microseconds(const NcclPrediction& p) { return p.time_s * 1e6; }

}  // namespace

TEST_CASE("NCCL 2.18 Simple 4-3-1 on 10 GbE: 8.4 + 8 x 5.7 + 2 x 3 x 9.6 us x 1.9 plus S / (1.25 GB/s x 8/14)") {
  const NcclPrediction p = nccl_ring_time(pcie_case(2, 18, 8, 3), NcclProtocol::simple, 64u << 20);
  CHECK(p.latency_s * 1e6 == doctest::Approx(111.6 * 1.9));
  CHECK(p.algbw_Bps == doctest::Approx(1.25e9 * 8 / 14));
  CHECK(microseconds(p) == doctest::Approx(212.04 + 93952.4096));
  // Below nRanks/16 x 64 KiB (32 KiB here) no plateau factor.
  CHECK(nccl_ring_time(pcie_case(2, 18, 8, 3), NcclProtocol::simple, 4096).latency_s * 1e6 == doctest::Approx(111.6));
}

TEST_CASE("NCCL 2.7 counts 2(nodes-1) network steps and 2.12-2.22 count 2 x nodes") {
  CHECK(nccl_ring_time(pcie_case(2, 7, 8, 3), NcclProtocol::simple, 64u << 20).latency_s * 1e6 ==
        doctest::Approx((8.4 + 10 * 5.7 + 4 * 9.6) * 1.9));
  // 2.20: base 8.4, PCIe hop 5.7 (above the 3 us network overhead), network hop 14, x 1.4 on Ampere
  // from 64 bytes per channel and rank.
  const NcclPrediction p = nccl_ring_time(pcie_case(2, 20, 16, 4), NcclProtocol::simple, 1u << 20);
  CHECK(p.latency_s * 1e6 == doctest::Approx((8.4 + 22 * 5.7 + 8 * 14) * 1.4));
  CHECK(microseconds(p) == doctest::Approx(344.12 + 1572.864));
  NcclCase volta = pcie_case(2, 20, 16, 4);
  volta.compute_capability = 70;
  CHECK(nccl_ring_time(volta, NcclProtocol::simple, 1u << 20).latency_s * 1e6 == doctest::Approx(245.8 * 1.9));
}

TEST_CASE("a network plugin's latency: none before 2.12, instead of the network hop to 2.17, added from 2.18 (twice for Simple)") {
  // 4-3-1 on 10 GbE, 2 x 3 = 6 network steps (2.12-2.22), Simple under the 1.9 plateau factor, LL without.
  NcclCase c = pcie_case(2, 18, 8, 3);
  c.net_latency_us = 75;
  CHECK(nccl_ring_time(c, NcclProtocol::simple, 64u << 20).latency_s * 1e6 == doctest::Approx((8.4 + 8 * 5.7 + 6 * (9.6 + 150)) * 1.9));
  CHECK(nccl_ring_time(c, NcclProtocol::ll, 4096).latency_s * 1e6 == doctest::Approx(3.6 + 8 * 1.0 * 1.8 + 6 * (2.7 + 75)));
  c.set_version({2, 14});
  CHECK(nccl_ring_time(c, NcclProtocol::simple, 64u << 20).latency_s * 1e6 == doctest::Approx((8.4 + 8 * 5.7 + 6 * 75) * 1.9));
  c.set_version({2, 9});
  CHECK(nccl_ring_time(c, NcclProtocol::simple, 64u << 20).latency_s * 1e6 == doctest::Approx((8.4 + 10 * 5.7 + 4 * 9.6) * 1.9));
  CHECK(nccl_network_hop_us(c, 9.6, NcclProtocol::simple) == doctest::Approx(9.6));
}

TEST_CASE("NCCL 2.5-2.6: one hop latency for the whole ring, the network's across nodes, no plateau factor") {
  // The 100 Gb/s IB fixture's layout (32 ranks on 8 nodes, NCCL 2.6.4): LL 3.6 + 62 x 0.9 = 59.4 us,
  // where nccl-tests measured 55-66 us from 4 B to 1 KiB (validate/traces/nccl/hkbu-100gib-8x4-auto.txt).
  const NcclPrediction ll = nccl_ring_time(pcie_case(2, 6, 32, 8), NcclProtocol::ll, 4);
  CHECK(ll.latency_s * 1e6 == doctest::Approx(59.4));
  CHECK(ll.algbw_Bps == doctest::Approx(0.3125e9 * 32 / 62));
  // Simple: 8.4 + 62 x 6.6, not multiplied by 1.9 at any size.
  CHECK(nccl_ring_time(pcie_case(2, 6, 32, 8), NcclProtocol::simple, 64u << 20).latency_s * 1e6 == doctest::Approx(417.6));
  // Inside one node every hop is the intra-node one (PCIe 1.0 for LL, not x 1.8).
  CHECK(nccl_ring_time(pcie_case(2, 5, 8, 1), NcclProtocol::ll, 4).latency_s * 1e6 == doctest::Approx(3.6 + 14 * 1.0));
  // LL128 at 120/128 of the bus, at most 100 GB/s in all; on by default only on Volta NVLink nodes.
  NcclCase nvlink = pcie_case(2, 6, 8, 1);
  nvlink.nvlink = true;
  nvlink.channel_bandwidth_Bps = 240e9;
  CHECK(nccl_ring_time(nvlink, NcclProtocol::ll128, 4).latency_s * 1e6 == doctest::Approx(3.6 + 14 * 2.5));
  CHECK(nccl_ring_time(nvlink, NcclProtocol::ll128, 4).algbw_Bps == doctest::Approx(100e9 * 8 / 14));
  CHECK_FALSE(nccl_protocol_enabled(nvlink, NcclProtocol::ll128));  // compute capability 80
  nvlink.compute_capability = 70;
  CHECK(nccl_protocol_enabled(nvlink, NcclProtocol::ll128));
}

TEST_CASE("NCCL 2.23 LL one rank per node: the tree's network hop (5 us) and LL at half the bus bandwidth") {
  const NcclPrediction p = nccl_ring_time(pcie_case(2, 23, 32, 32), NcclProtocol::ll, 1024);
  CHECK(p.latency_s * 1e6 == doctest::Approx(6.6 + 62 * 5.0));
  CHECK(p.algbw_Bps == doctest::Approx(0.625e9 * 32 / 62));
  CHECK(microseconds(p) == doctest::Approx(316.6 + 3.1744));
  // Before 2.21 LL runs at a quarter of the bus bandwidth.
  CHECK(nccl_ring_time(pcie_case(2, 20, 32, 32), NcclProtocol::ll, 1024).algbw_Bps == doctest::Approx(0.3125e9 * 32 / 62));
}

TEST_CASE("auto picks LL for small sizes and Simple for large ones and LL128 only inside an NVLink node") {
  const NcclCase flagship = pcie_case(2, 18, 8, 3);
  // LL at 4 KiB: 3.6 + 8 x 1.0 x 1.8 + 6 x 2.7 = 34.2 us + 4096 B / (0.3125 GB/s x 8/14).
  const NcclPrediction small = nccl_predict(flagship, NcclProtocol::auto_choice, 4096);
  CHECK(small.protocol == NcclProtocol::ll);
  CHECK(microseconds(small) == doctest::Approx(34.2 + 22.9376));
  CHECK(nccl_predict(flagship, NcclProtocol::auto_choice, 64u << 20).protocol == NcclProtocol::simple);
  CHECK_FALSE(nccl_protocol_enabled(flagship, NcclProtocol::ll128));
  NcclCase dgx = pcie_case(2, 18, 8, 1);
  dgx.nvlink = true;
  CHECK(nccl_protocol_enabled(dgx, NcclProtocol::ll128));
  // Forced, the protocol is kept.
  CHECK(nccl_predict(flagship, NcclProtocol::ll, 64u << 20).protocol == NcclProtocol::ll);
}

TEST_CASE("channels: twice what the search finds one per NIC across nodes and the bus bandwidth is the search's") {
  NcclTopologyFacts facts;
  facts.nic_bandwidth_Bps = kTenGbE;
  facts.nics = 1;
  facts.intra_bandwidth_Bps = 12e9;
  const NcclCase one_nic = nccl_case(NcclSettings{}, facts, 8, 3);
  CHECK(one_nic.channels == 2);
  CHECK(one_nic.search_channels == 1);
  CHECK(one_nic.channel_bandwidth_Bps == kTenGbE);
  facts.nics = 8;
  CHECK(nccl_case(NcclSettings{}, facts, 16, 2).channels == 16);
  // Inside one node: one channel at the intra-node rate.
  const NcclCase single = nccl_case(NcclSettings{}, facts, 4, 1);
  CHECK(single.channels == 2);
  CHECK(single.channel_bandwidth_Bps == 12e9);
  NcclSettings three;
  three.channels = 3;
  CHECK(nccl_case(three, facts, 8, 3).channels == 3);
}

TEST_CASE("inside one NVSwitch node the search fills the GPUs' NVLink: 24 channels on A100 and H100, 12 on V100") {
  // A100, 12 links at SM80_NVLINK_BW 20 (2.18): 6 channels at 40 GB/s fill 240, duplicated to 12 at 20
  // (the corpus's a100pcie log: "nChannels 12, bw 20"), and the communicator doubles them to 24.
  NcclTopologyFacts facts;
  facts.nvlink = true;
  facts.intra_bandwidth_Bps = 300e9;
  const NcclCase a100 = nccl_case(NcclSettings{}, facts, 8, 1);
  CHECK(a100.search_channels == 12);
  CHECK(a100.channel_bandwidth_Bps == doctest::Approx(20e9));
  CHECK(a100.channels == 24);
  // 2.9: 21 per link, 42 GB/s first: 6 x 42 = 252, duplicated to 12 x 21.
  CHECK(nccl_nvswitch_search(nccl_release_of({2, 9}), 80, 12).channels == 12);
  CHECK(nccl_nvswitch_search(nccl_release_of({2, 9}), 80, 12).bandwidth_GBps == doctest::Approx(21));
  // H100, 18 links at 20.6 (2.21): 60 GB/s gives 6 channels (360 of 370.8); 50, 40 and 30 give no more;
  // 24 is under half of 60. Duplicated (60 >= 50): 12 at 30.
  const NcclIntraSearch h100 = nccl_nvswitch_search(nccl_release_of({2, 21}), 90, 18);
  CHECK(h100.channels == 12);
  CHECK(h100.bandwidth_GBps == doctest::Approx(30));
  // 2.16: 18 x 22 = 396 at 66 GB/s: 6, duplicated to 12 at 33.
  CHECK(nccl_nvswitch_search(nccl_release_of({2, 16}), 90, 18).bandwidth_GBps == doctest::Approx(33));
  // V100 on NVSwitch (DGX-2), 6 links at 21 (2.6): 24 gives 5 (120 of 126), 21 gives 6; no duplication
  // before 2.7. 2.18: 6 x 20 = 120 at 40: 3, duplicated to 6 at 20.
  const NcclIntraSearch v100 = nccl_nvswitch_search(nccl_release_of({2, 6}), 70, 6);
  CHECK(v100.channels == 6);
  CHECK(v100.bandwidth_GBps == doctest::Approx(21));
  CHECK(nccl_nvswitch_search(nccl_release_of({2, 18}), 70, 6).channels == 6);
  // B200, 18 links at 40.1 (2.28): 8 at 90, duplicated to 16 at 45.
  CHECK(nccl_nvswitch_search(nccl_release_of({2, 28}), 100, 18).channels == 16);
  // 2.4 had no search: one channel at the node's rate.
  NcclSettings v24;
  v24.set_version({2, 4});
  CHECK(nccl_case(v24, facts, 8, 1).search_channels == 1);
  // Under the model made for NCCL the port carries NVLink's payload (20 of 25 GB/s per link on A100):
  // the links are counted before, so the search still sees 12.
  facts.intra_bandwidth_Bps = 240e9;
  facts.nvlink_links = 12;
  CHECK(nccl_case(NcclSettings{}, facts, 8, 1).search_channels == 12);
  CHECK(nvlink_links(300e9, 80) == 12);
  CHECK(nvlink_payload_share(80) == doctest::Approx(0.8));
}

TEST_CASE("NCCL 2.4: the search's channels, not twice, and LL up to getKernelInfo's threshold") {
  NcclTopologyFacts facts;
  facts.nic_bandwidth_Bps = kTenGbE;
  facts.intra_bandwidth_Bps = 12e9;
  NcclSettings v24;
  v24.set_version({2, 4});
  // The public 2.4.7 runs log one channel on one NIC per node, the 2.6.4 runs two.
  const NcclCase ib = nccl_case(v24, facts, 32, 8);
  CHECK(ib.channels == 1);
  // 32 ranks on 8 Turing nodes: 128 bytes per thread (64 doubled on several nodes), LL at 8 per thread
  // reaches 256 threads at 1 MiB: the threshold is 1 channel x 256 threads x 32 chunks x 128 B = 1 MiB.
  NcclCase turing = ib;
  turing.compute_capability = 75;
  CHECK(nccl_predict(turing, NcclProtocol::auto_choice, 1u << 20).protocol == NcclProtocol::ll);
  CHECK(nccl_predict(turing, NcclProtocol::auto_choice, (1u << 20) + 1024).protocol == NcclProtocol::simple);
  // 16 ranks on 16 nodes: 256 x 16 x 128 = 512 KiB.
  NcclCase sixteen = nccl_case(v24, facts, 16, 16);
  sixteen.compute_capability = 75;
  CHECK(nccl_predict(sixteen, NcclProtocol::auto_choice, 512u << 10).protocol == NcclProtocol::ll);
  CHECK(nccl_predict(sixteen, NcclProtocol::auto_choice, 1u << 20).protocol == NcclProtocol::simple);
  // Inside one Pascal node (32 bytes per thread, not doubled): 256 x 8 x 32 = 64 KiB.
  NcclCase pascal = nccl_case(v24, facts, 8, 1);
  pascal.compute_capability = 60;
  CHECK(nccl_predict(pascal, NcclProtocol::auto_choice, 64u << 10).protocol == NcclProtocol::ll);
  CHECK(nccl_predict(pascal, NcclProtocol::auto_choice, 128u << 10).protocol == NcclProtocol::simple);
  // No LL128 before 2.5, even where 2.5 and 2.6 enable it (one Volta NVLink node).
  NcclCase volta_nvlink = nccl_case(v24, facts, 8, 1);
  volta_nvlink.nvlink = true;
  volta_nvlink.compute_capability = 70;
  CHECK_FALSE(nccl_protocol_enabled(volta_nvlink, NcclProtocol::ll128));
  volta_nvlink.set_version({2, 5});
  CHECK(nccl_protocol_enabled(volta_nvlink, NcclProtocol::ll128));
  // 2.4 had no time model: its closed form is 2.5's, the nearest there is.
  CHECK(nccl_ring_time(pcie_case(2, 4, 32, 8), NcclProtocol::ll, 4).latency_s * 1e6 == doctest::Approx(59.4));
}

TEST_CASE("Simple's handshake per slice is its hop latency less LL's: 2.6 PCIe 4.7 and network 5.7 us, 2.7 NVLink 2.93 and 6.9") {
  const NcclHandshake six = nccl_simple_handshake(pcie_case(2, 6, 32, 8));
  CHECK(six.intra_s * 1e6 == doctest::Approx(5.7 - 1.0));
  CHECK(six.net_s * 1e6 == doctest::Approx(6.6 - 0.9));
  NcclCase nvlink = pcie_case(2, 7, 16, 2);
  nvlink.nvlink = true;
  const NcclHandshake seven = nccl_simple_handshake(nvlink);
  CHECK(seven.intra_s * 1e6 == doctest::Approx(3.4 - 0.47));
  CHECK(seven.net_s * 1e6 == doctest::Approx(9.6 - 2.7));
}

TEST_CASE("small calls run on fewer channels: NCCL's launch rule, channels x threads x bytes per thread") {
  // 32 ranks on 8 nodes, 2 channels (the IB fixture): a ring's LL needs 8 x 32 bytes per thread of
  // its 512, 128 KiB per channel; the tree's LL 8 x 512 = 4 KiB; LL128 8 x 640; Simple 64 x 256 (a ring
  // whose search found 12.5 GB/s: more than PCIe Gen3 x16's 12, so 512 threads) or 64 x 512 for the tree.
  NcclCase c = pcie_case(2, 6, 32, 8);
  c.channel_bandwidth_Bps = 12.5e9;
  CHECK(nccl_max_threads(c, NcclAlgorithmKind::ring, NcclProtocol::simple) == 512);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::ring, NcclProtocol::ll, 256 << 10) == 2);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::ring, NcclProtocol::ll, (256 << 10) - 4) == 1);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::ring, NcclProtocol::ll, 64 << 10) == 1);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::tree, NcclProtocol::ll, 8 << 10) == 2);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::tree, NcclProtocol::ll, 4 << 10) == 1);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::ring, NcclProtocol::simple, 64 << 10) == 2);
  CHECK(nccl_launch_channels(c, NcclAlgorithmKind::ring, NcclProtocol::simple, 32 << 10) == 1);
  // 10 GbE: 1.25 GB/s found, at most PCIe Gen3 x16: the ring's Simple gets 256 threads.
  CHECK(nccl_max_threads(pcie_case(2, 6, 32, 8), NcclAlgorithmKind::ring, NcclProtocol::simple) == 256);
  // 80 ranks on 32 channels: LL needs 8 x 80 x 512 bytes per channel, 1 MiB runs on 3; LL128 5 KiB.
  NcclCase rails = pcie_case(2, 29, 80, 10);
  rails.channels = 32;
  CHECK(nccl_launch_channels(rails, NcclAlgorithmKind::ring, NcclProtocol::ll, 1 << 20) == 3);
  CHECK(nccl_launch_channels(rails, NcclAlgorithmKind::ring, NcclProtocol::ll128, 160 << 10) == 32);
  CHECK(nccl_launch_channels(rails, NcclAlgorithmKind::ring, NcclProtocol::ll128, 80 << 10) == 16);
}

TEST_CASE("NVLS calls launch NCCL_NVLS_NCHANNELS, not the search's channels: 16 on Hopper, 32 or 24 on Blackwell from 2.25 and 2.27") {
  NcclCase hopper = pcie_case(2, 29, 80, 10);
  hopper.compute_capability = 90;
  hopper.nvls_channels = 8;  // what NCCL's model prices
  CHECK(nccl_nvls_launch_channels(hopper) == 16);
  NcclCase blackwell = hopper;
  blackwell.compute_capability = 100;
  CHECK(nccl_nvls_launch_channels(blackwell) == 32);
  blackwell.nodes = 1;
  CHECK(nccl_nvls_launch_channels(blackwell) == 24);
  blackwell.set_version({2, 26});
  CHECK(nccl_nvls_launch_channels(blackwell) == 32);
  blackwell.set_version({2, 24});
  CHECK(nccl_nvls_launch_channels(blackwell) == 16);
}

TEST_CASE("NVLS tree chunks as enqueue.cc sizes them per era: 16 channels x 8 heads, halved for small calls") {
  // 16 x 8 = 128 concurrent ops. 2.29 from 4 nodes: NCCL_NVLS_CHUNKSIZE 128 KiB capped at 64 KiB, which
  // 32 MiB keeps (not below 4 x 128 x 64 KiB) and 4 MiB halves (below 128 x 64 KiB).
  NcclRankSettings nccl;
  nccl.channels = 16;
  nccl.rules = nccl_enqueue_rules(nccl_release_of({2, 29}), nccl.buffsize);
  const auto kib = [](std::size_t floats) { return floats * sizeof(float) / 1024; };
  CHECK(kib(nvls_tree_chunk_floats(nccl, 10, 8, 32u << 20)) == 64);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 10, 8, 4u << 20)) == 32);
  // Two nodes: no cap, 128 KiB; below 4 x 128 x 128 KiB = 64 MiB, 64 KiB.
  CHECK(kib(nvls_tree_chunk_floats(nccl, 2, 8, 64u << 20)) == 128);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 2, 8, 32u << 20)) == 64);
  // 2.20 starts from a Simple step, NCCL_BUFFSIZE / 8 = 512 KiB: 256 KiB below 32 x 128 x 512 KiB = 2 GiB,
  // 128 KiB below 16 x 128 x 256 KiB = 512 MiB.
  nccl.rules = nccl_enqueue_rules(nccl_release_of({2, 20}), nccl.buffsize);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 2, 8, 4ull << 30)) == 512);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 2, 8, 1u << 30)) == 256);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 2, 8, 256u << 20)) == 128);
  // 2.18 had no cap from 4 nodes.
  nccl.rules = nccl_enqueue_rules(nccl_release_of({2, 18}), nccl.buffsize);
  CHECK(kib(nvls_tree_chunk_floats(nccl, 10, 8, 1u << 30)) == 256);
}

TEST_CASE("NVLS chunks on one node as enqueue.cc sizes them: 128 KiB, halved to 64, 32 and 16 KiB for smaller calls") {
  // 8 H100, 16 NVLS channels: 128 concurrent ops. 64 KiB below 64 x 128 x 128 KiB = 1 GiB, 32 KiB below
  // 8 x 128 x 64 KiB = 64 MiB, 16 KiB below 2 x 128 x 32 KiB = 8 MiB; 2.17 halved below 32 x, 512 MiB.
  NcclRankSettings nccl;
  nccl.channels = 16;
  nccl.rules = nccl_enqueue_rules(nccl_release_of({2, 29}), nccl.buffsize);
  const auto kib = [](std::size_t floats) { return floats * sizeof(float) / 1024; };
  CHECK(kib(nvls_chunk_floats(nccl, 8, 1u << 30)) == 128);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 512u << 20)) == 64);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 64u << 20)) == 64);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 32u << 20)) == 32);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 4u << 20)) == 16);
  nccl.rules = nccl_enqueue_rules(nccl_release_of({2, 17}), nccl.buffsize);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 512u << 20)) == 128);
  CHECK(kib(nvls_chunk_floats(nccl, 8, 256u << 20)) == 64);
}

TEST_CASE("NCCL's ring model per function: all-gather and reduce-scatter take N-1 steps, nodes-1 across nodes, no plateau") {
  // 2.18, 4-3-1 on 10 GbE, Simple: 8.4 + (7 - 2) x 5.7 + 2 x 9.6 us; algorithm bandwidth 1.25 GB/s x 8/7;
  // the plateau factor is all-reduce's only.
  for (NcclFunction function : {NcclFunction::all_gather, NcclFunction::reduce_scatter}) {
    const NcclPrediction p = nccl_ring_time(pcie_case(2, 18, 8, 3), NcclProtocol::simple, 64u << 20, function);
    CHECK(p.latency_s * 1e6 == doctest::Approx(56.1));
    CHECK(p.algbw_Bps == doctest::Approx(1.25e9 * 8 / 7));
  }
  // All-reduce keeps its 2(N-1) steps and 2 x nodes network steps under the plateau factor.
  CHECK(nccl_ring_time(pcie_case(2, 18, 8, 3), NcclProtocol::simple, 64u << 20, NcclFunction::all_reduce).latency_s * 1e6 ==
        doctest::Approx(111.6 * 1.9));
}

TEST_CASE("NCCL's ring model per function: broadcast and reduce are a chain of N steps at one hop's latency") {
  // 2.18 across 3 nodes: Simple at the tree's network hop (14 us), LL at the ring's (2.7 us); the bus
  // bandwidth is the algorithm's (N/N).
  const NcclCase c = pcie_case(2, 18, 8, 3);
  for (NcclFunction function : {NcclFunction::broadcast, NcclFunction::reduce}) {
    const NcclPrediction simple = nccl_ring_time(c, NcclProtocol::simple, 64u << 20, function);
    CHECK(simple.latency_s * 1e6 == doctest::Approx(8.4 + 8 * 14));
    CHECK(simple.algbw_Bps == doctest::Approx(1.25e9));
    const NcclPrediction ll = nccl_ring_time(c, NcclProtocol::ll, 4096, function);
    CHECK(ll.latency_s * 1e6 == doctest::Approx(3.6 + 8 * 2.7));
    CHECK(ll.algbw_Bps == doctest::Approx(1.25e9 / 4));
  }
}

TEST_CASE("NCCL's ring model per function: LL's third on one node (2.7-2.20) and LL128's cap per function (2.7-2.9)") {
  // One node: all-gather, reduce-scatter and broadcast get a third of the bus under LL, all-reduce and
  // reduce a quarter; from 2.21 all of them half.
  const NcclCase one_node = pcie_case(2, 18, 8, 1);
  CHECK(nccl_ring_bus_GBps(one_node, NcclProtocol::ll, NcclFunction::all_gather) == doctest::Approx(1.25 / 3));
  CHECK(nccl_ring_bus_GBps(one_node, NcclProtocol::ll, NcclFunction::broadcast) == doctest::Approx(1.25 / 3));
  CHECK(nccl_ring_bus_GBps(one_node, NcclProtocol::ll, NcclFunction::reduce) == doctest::Approx(1.25 / 4));
  CHECK(nccl_ring_bus_GBps(one_node, NcclProtocol::ll, NcclFunction::all_reduce) == doctest::Approx(1.25 / 4));
  CHECK(nccl_ring_bus_GBps(pcie_case(2, 18, 8, 3), NcclProtocol::ll, NcclFunction::all_gather) == doctest::Approx(1.25 / 4));
  CHECK(nccl_ring_bus_GBps(pcie_case(2, 21, 8, 1), NcclProtocol::ll, NcclFunction::all_gather) == doctest::Approx(1.25 / 2));
  // LL128 on one 40 GB/s channel: 0.92 x 40 = 36.8, capped per channel at 2.8's ll128MaxBwPerCh of the
  // function (all-gather 18.3, reduce 12.0, all-reduce 16.9); 2.10 on: 20 for every function on Volta.
  NcclCase fast = pcie_case(2, 8, 8, 1);
  fast.channel_bandwidth_Bps = 40e9;
  fast.compute_capability = 70;
  CHECK(nccl_ring_bus_GBps(fast, NcclProtocol::ll128, NcclFunction::all_gather) == doctest::Approx(18.3));
  CHECK(nccl_ring_bus_GBps(fast, NcclProtocol::ll128, NcclFunction::reduce) == doctest::Approx(12.0));
  CHECK(nccl_ring_bus_GBps(fast, NcclProtocol::ll128, NcclFunction::all_reduce) == doctest::Approx(16.9));
  fast.set_version({2, 10});
  CHECK(nccl_ring_bus_GBps(fast, NcclProtocol::ll128, NcclFunction::all_gather) == doctest::Approx(20.0));
}
