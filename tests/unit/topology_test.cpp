#include "../../sim/analysis/topology_graph.h"
#include "../../sim/platform/cluster_layout.h"
#include "../../sim/platform/platform_xml.h"
#include "temp_files.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <tuple>
#include <vector>

using namespace ringsim;
using ringsim::testing::TempDir;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("the seed rack expands to three 4-GPU nodes with 10 GbE NICs") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  REQUIRE(topology.racks.size() == 1);
  const RackSpec& rack = topology.racks[0];
  REQUIRE(rack.nodes.size() == 3);
  CHECK(rack.nodes[2].name == "node2");
  CHECK(rack.nodes[0].gpus == 4);
  CHECK(rack.nodes[0].nic.bandwidth_Bps == doctest::Approx(1.25e9));
  CHECK(rack.nodes[0].nic.latency_s == doctest::Approx(1e-6));
  CHECK(rack.nodes[0].intra.bandwidth_Bps == doctest::Approx(12e9));
  CHECK(rack.switch_link.bandwidth_Bps == doctest::Approx(12.5e9));
  const ClusterLayout layout = layout_of(topology);
  REQUIRE(layout.nodes.size() == 3);
  CHECK(layout.nodes[1].hosts == std::vector<std::string>{"node1-gpu0", "node1-gpu1", "node1-gpu2", "node1-gpu3"});
}

TEST_CASE("platform XML has an intra link per node and a split-duplex NIC both ways and a switch between nodes") {
  const std::string xml = platform_xml(load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json"));
  CHECK(occurrences(xml, "<host ") == 12);
  CHECK(occurrences(xml, "sharing_policy=\"SPLITDUPLEX\"") == 3);
  CHECK(xml.find(R"(<link id="node1-intra" bandwidth="12000000000Bps" latency="5e-07s" sharing_policy="SHARED"/>)") !=
        std::string::npos);
  CHECK(occurrences(xml, "<route src=\"node0-gpu") == 6 + 4);  // 6 GPU pairs + 4 GPU->router (UP)
  CHECK(occurrences(xml, "direction=\"UP\"") == 12);
  CHECK(occurrences(xml, "direction=\"DOWN\"") == 12);
  CHECK(occurrences(xml, "<zoneRoute ") == 3);  // node pairs, symmetrical through the switch
  CHECK(xml.find("loopback") == std::string::npos);
}

TEST_CASE("topology errors name the file and the JSON path and the fix") {
  TempDir dir;
  auto bad_unit = dir.write("t.json", R"({"racks": [{"nodes": [{"name": "n", "nic": {"bandwidth": "fast"}}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(bad_unit)) ==
        bad_unit.string() + ": /racks/0/nodes/0/nic/bandwidth: expected a bandwidth such as 10Gbps, 1.25GBps or 100Mbps, found \"fast\"");
  auto no_racks = dir.write("u.json", R"({"name": "x"})");
  CHECK(RINGSIM_ERROR_OF(load_topology(no_racks)) == no_racks.string() + ": /racks: missing required key");
  auto twice = dir.write("v.json", R"({"racks": [{"nodes": [{"name": "n", "count": 2}, {"name": "n1"}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(twice)).find("node name \"n1\" is used twice") != std::string::npos);
  auto typo = dir.write("w.json", R"({"racks": [{"nodes": [{"name": "n", "gpu": 4}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(typo)).find("/racks/0/nodes/0/gpu: unknown key; did you mean \"gpus\"?") !=
        std::string::npos);
}

TEST_CASE("an EFA NIC takes 10 us unless the topology says otherwise, and RoCE's payload share") {
  // AWS's own NCCL tuner charges 20 us per inter-node step on P5: two NICs per hop.
  TempDir dir;
  auto efa = dir.write("efa.json", R"({"racks": [{"nodes": [{"name": "p5", "nic_transport": "efa", "nic": {"bandwidth": "400Gbps"}},
                                                          {"name": "q", "nic_transport": "efa", "nic": {"latency": "3us"}},
                                                          {"name": "r", "nic_transport": "roce"}]}]})");
  const Topology topology = load_topology(efa);
  const auto& nodes = topology.racks.at(0).nodes;
  CHECK(nodes.at(0).nic_transport == NicTransport::efa);
  CHECK(nodes.at(0).nic.latency_s == doctest::Approx(10e-6));
  CHECK(nodes.at(0).nic.bandwidth_Bps == doctest::Approx(50e9));
  CHECK(nodes.at(1).nic.latency_s == doctest::Approx(3e-6));
  CHECK(nodes.at(2).nic.latency_s == doctest::Approx(1e-6));
  CHECK(transport_payload_share(NicTransport::efa) == transport_payload_share(NicTransport::roce));
  auto unknown = dir.write("x.json", R"({"racks": [{"nodes": [{"name": "n", "nic_transport": "srd"}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(unknown)) ==
        unknown.string() + ": /racks/0/nodes/0/nic_transport: expected \"tcp\", \"ib\", \"roce\", \"efa\" or \"cxi\", found \"srd\"");
}

TEST_CASE("a switch without bandwidth is non-blocking and one with bandwidth is a shared backplane") {
  TempDir dir;
  auto open = dir.write("o.json", R"({"racks": [{"nodes": [{"name": "a", "nic": {"bandwidth": "25Gbps"}}, {"name": "b"}]}]})");
  const Topology nonblocking = load_topology(open);
  CHECK(nonblocking.racks[0].switch_nonblocking);
  // Room for both NICs at full rate both ways: 2 x (25 + 10) Gbit/s.
  CHECK(nonblocking.racks[0].switch_link.bandwidth_Bps == doctest::Approx(2 * 35e9 / 8));
  CHECK(platform_xml(nonblocking).find(R"(<link id="rack0-switch" bandwidth="8750000000Bps" latency="1e-06s" sharing_policy="SHARED"/>)") !=
        std::string::npos);
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  CHECK_FALSE(seed.racks[0].switch_nonblocking);
  CHECK(platform_xml(seed).find(R"(<link id="rack0-switch" bandwidth="12500000000Bps" latency="1e-06s" sharing_policy="SHARED"/>)") !=
        std::string::npos);
}

TEST_CASE("a process stack puts one link per rank slot on the inter-node routes in both directions") {
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  const std::string shared = platform_xml(seed, PlatformModel{ProcessStack{1, true, 0}, false, {}});
  CHECK(occurrences(shared, "-stack\" bandwidth=\"1250000000Bps\" latency=\"0s\" sharing_policy=\"SHARED\"") == 12);
  CHECK(shared.find(R"(<route src="node2-gpu0" dst="node2-router" symmetrical="NO"><link_ctn id="node2-gpu0-stack"/><link_ctn id="node2-nic" direction="UP"/></route>)") !=
        std::string::npos);
  CHECK(shared.find(R"(<route src="node2-router" dst="node2-gpu0" symmetrical="NO"><link_ctn id="node2-nic" direction="DOWN"/><link_ctn id="node2-gpu0-stack"/></route>)") !=
        std::string::npos);
  CHECK(shared.find(R"(<route src="node0-gpu0" dst="node0-gpu1"><link_ctn id="node0-intra"/></route>)") != std::string::npos);
  const std::string split = platform_xml(seed, PlatformModel{ProcessStack{2, false, 0}, false, {}});
  CHECK(occurrences(split, "-stack\" bandwidth=\"2500000000Bps\" latency=\"0s\" sharing_policy=\"SPLITDUPLEX\"") == 12);
  CHECK(split.find(R"(<link_ctn id="node1-gpu3-stack" direction="UP"/>)") != std::string::npos);
}

TEST_CASE("two racks under a spine: uplinks from the oversubscription ratio and routes through the spine") {
  const Topology racks = load_topology(RINGSIM_SOURCE_DIR "/topologies/two-racks-4to1.json");
  REQUIRE(racks.spine.has_value());
  REQUIRE(racks.racks.size() == 2);
  CHECK(racks.racks[0].uplink.bandwidth_Bps == doctest::Approx(4 * 10e9 / 8 / 4));  // 4 NICs of 10 Gbit/s, 4:1
  const std::string xml = platform_xml(racks);
  CHECK(xml.find(R"(<zoneRoute src="rack0" dst="rack1" gw_src="rack0-router" gw_dst="rack1-router" symmetrical="NO"><link_ctn id="rack0-uplink" direction="UP"/><link_ctn id="spine"/><link_ctn id="rack1-uplink" direction="DOWN"/></zoneRoute>)") !=
        std::string::npos);
  const RingEmbedding ring = embed_ring(racks, PlatformModel{}, {"r0node3-gpu3", "r1node0-gpu0"});
  const std::vector<LinkUse> expected{{"r0node3-nic", "up"}, {"rack0-switch", "shared"}, {"rack0-uplink", "up"},
                                      {"spine", "shared"},  {"rack1-uplink", "down"},   {"rack1-switch", "shared"},
                                      {"r1node0-nic", "down"}};
  CHECK(ring.routes[0] == expected);
  CHECK(ring.route_latency_s[0] == doctest::Approx(2e-6 + 1e-6 + 1e-6 + 1e-6 + 1e-6 + 1e-6 + 2e-6));
}

TEST_CASE("several NICs per node: GPU g leaves through NIC g times nics over gpus and NVLink ports are per GPU") {
  const Topology dgx = load_topology(RINGSIM_SOURCE_DIR "/topologies/dgx-a100-pair.json");
  const NodeSpec& node = dgx.racks[0].nodes[0];
  CHECK(node.nics == 8);
  CHECK(node.intra_kind == IntraKind::nvlink);
  CHECK(nic_of_gpu(node, 5) == 5);
  const RingEmbedding ring = embed_ring(dgx, PlatformModel{}, {"dgx0-gpu5", "dgx1-gpu2"});
  CHECK(ring.routes[0].front() == LinkUse{"dgx0-nic5", "up"});
  CHECK(ring.routes[0].back() == LinkUse{"dgx1-nic2", "down"});
  const RingEmbedding inside = embed_ring(dgx, PlatformModel{}, {"dgx0-gpu1", "dgx0-gpu6"});
  const std::vector<LinkUse> nvlink{{"dgx0-gpu1-nvlink", "up"}, {"dgx0-gpu6-nvlink", "down"}};
  CHECK(inside.routes[0] == nvlink);
  NodeSpec two_nics = node;
  two_nics.nics = 2;
  CHECK(nic_of_gpu(two_nics, 3) == 0);
  CHECK(nic_of_gpu(two_nics, 4) == 1);
}

TEST_CASE("half-duplex NICs and background loads reshape the platform and the analysis alike") {
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  PlatformModel half;
  half.nic_half_duplex = true;
  const std::string xml = platform_xml(seed, half);
  CHECK(xml.find(R"(<link id="node0-nic" bandwidth="1250000000Bps" latency="1e-06s" sharing_policy="SHARED"/>)") != std::string::npos);
  CHECK(xml.find(R"(direction="UP")") == std::string::npos);
  PlatformModel loaded;
  loaded.background = {{"node1-nic", "up", 0.25}};
  const std::string with_load = platform_xml(seed, loaded);
  CHECK(with_load.find(R"(<link id="node1-nic-background-up" bandwidth="937500000Bps" latency="0s" sharing_policy="SHARED"/>)") !=
        std::string::npos);
  CHECK(with_load.find(R"(<link_ctn id="node1-nic" direction="UP"/><link_ctn id="node1-nic-background-up"/>)") != std::string::npos);
  CHECK(with_load.find(R"(<link_ctn id="node1-nic" direction="DOWN"/><link_ctn id="node1-nic-background)") == std::string::npos);
  const RingEmbedding ring = embed_ring(seed, loaded, {"node1-gpu0", "node2-gpu0"});
  CHECK(ring.bandwidth.at({"node1-nic", "up"}) == doctest::Approx(0.75 * 1.25e9));
  PlatformModel unknown;
  unknown.background = {{"node9-nic", "up", 0.5}};
  CHECK(RINGSIM_ERROR_OF(routes_under_model(seed, unknown, "m.json")).find("m.json: model: background load on \"node9-nic\"") == 0);
  PlatformModel wrong_direction;
  wrong_direction.background = {{"rack0-switch", "up", 0.5}};
  CHECK(RINGSIM_ERROR_OF(routes_under_model(seed, wrong_direction, "m.json")).find("its direction must be \"both\"") != std::string::npos);
}

TEST_CASE("intra fabric ports: GPUs without peer-to-peer get a PCIe port each, and a bad fabric is one line") {
  // The hkbu cluster's GPUs stage transfers in host memory, each over its own PCIe link.
  const Topology hkbu = load_topology(RINGSIM_SOURCE_DIR "/topologies/hkbu-100GbIB-8x4.json");
  const NodeSpec& node = hkbu.racks[0].nodes[0];
  CHECK(node.intra_kind == IntraKind::pcie);
  CHECK(node.intra_ports);
  // GPUs 0-1 and 2-3 share a PCIe switch: a transfer between them crosses both switches' uplinks.
  const RingEmbedding inside = embed_ring(hkbu, PlatformModel{}, {"node0-gpu1", "node0-gpu2"});
  const std::vector<LinkUse> ports{{"node0-gpu1-pcie", "up"}, {"node0-pcie-switch0", "up"}, {"node0-pcie-switch1", "down"},
                                   {"node0-gpu2-pcie", "down"}};
  CHECK(inside.routes[0] == ports);
  CHECK_FALSE(load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json").racks[0].nodes[0].intra_ports);  // one bus

  TempDir dir;
  const auto bad = dir.write("bad-fabric.json", R"({"racks": [{"nodes": [{"name": "n", "intra": {"fabric": "mesh"}}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(bad)) ==
        bad.string() + ": /racks/0/nodes/0/intra/fabric: expected \"bus\" (one link shared by every transfer in the node) or "
                       "\"ports\" (each GPU its own split-duplex link), found \"mesh\"");
}

TEST_CASE("without GPUDirect RDMA NCCL's network transfers cross the GPU's way to host memory, and MPI routes do not change") {
  const Topology hkbu = load_topology(RINGSIM_SOURCE_DIR "/topologies/hkbu-100GbIB-8x4.json");
  CHECK_FALSE(hkbu.racks[0].nodes[0].gdr);
  CHECK(hkbu.racks[0].nodes[0].switch_gpus == 2);
  PlatformModel nccl;
  nccl.nccl_staging = true;
  const std::vector<LinkUse> staged{{"node0-gpu3-pcie", "up"}, {"node0-pcie-switch1", "up"}, {"node0-nic", "up"},
                                    {"rack0-switch", "shared"},  {"node1-nic", "down"},          {"node1-pcie-switch0", "down"},
                                    {"node1-gpu0-pcie", "down"}};
  CHECK(embed_ring(hkbu, nccl, {"node0-gpu3", "node1-gpu0"}).routes[0] == staged);
  const std::vector<LinkUse> direct{{"node0-nic", "up"}, {"rack0-switch", "shared"}, {"node1-nic", "down"}};
  CHECK(embed_ring(hkbu, PlatformModel{}, {"node0-gpu3", "node1-gpu0"}).routes[0] == direct);
  // Nodes have GPUDirect RDMA unless the topology says not.
  TempDir dir;
  const auto nvlink = dir.write("nvlink.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2, "intra": {"kind": "nvlink"}}]}]})");
  CHECK(load_topology(nvlink).racks[0].nodes[0].gdr);
  const auto pcie = dir.write("pcie.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2}]}]})");
  CHECK(load_topology(pcie).racks[0].nodes[0].gdr);
  const auto bus_switch =
      dir.write("bus.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2, "pcie_switch": {"gpus": 2}}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(bus_switch)).find("/racks/0/nodes/0/pcie_switch: a PCIe switch shared by GPUs needs") !=
        std::string::npos);
}

TEST_CASE("a GPU model implies its NVLink rate and reduction speed where the topology states none, and says so") {
  TempDir dir;
  const auto node = [&](const std::string& model, const std::string& intra) {
    return load_topology(dir.write("t.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 8, "gpu_model": ")" + model +
                                                 R"(", "intra": )" + intra + "}]}]}"));
  };
  // NVIDIA's per-direction rates: links x 25 GB/s (NVLink 2-4), x 50 (NVLink 5); FP32 peaks.
  const std::vector<std::tuple<std::string, double, double, std::string>> models{
      {"H100 SXM", 450e9, 67e12, "NVLink 450 GB/s per GPU (18 links): H100 SXM"},
      {"NVIDIA H100 80GB HBM3", 450e9, 67e12, "NVLink 450 GB/s per GPU (18 links): H100 SXM"},
      {"A100-SXM4-40GB", 300e9, 19.5e12, "NVLink 300 GB/s per GPU (12 links): A100 SXM"},
      {"Tesla V100-SXM2-32GB", 150e9, 15.7e12, "NVLink 150 GB/s per GPU (6 links): V100 SXM2"},
      {"NVIDIA B200", 900e9, 80e12, "NVLink 900 GB/s per GPU (18 links): B200"}};
  for (const auto& row : models) {
    // Named copies, not structured bindings: doctest's CAPTURE and CHECK capture them in lambdas,
    // which clang 14 refuses for structured bindings.
    const auto& model = std::get<0>(row);
    const double nvlink = std::get<1>(row), speed = std::get<2>(row);
    const auto& named = std::get<3>(row);
    CAPTURE(model);
    const Topology topology = node(model, R"({"kind": "nvlink"})");
    CHECK(topology.racks[0].nodes[0].intra.bandwidth_Bps == doctest::Approx(nvlink));
    // NCCL's kernels reduce at the model's speed (under the model made for NCCL); MPI's algorithms
    // reduce in host memory and keep the default.
    CHECK(topology.racks[0].nodes[0].gpu_speed_flops == doctest::Approx(1e12));
    CHECK(with_gpu_model_speeds(topology).racks[0].nodes[0].gpu_speed_flops == doctest::Approx(speed));
    CHECK(std::count(topology.assumed.begin(), topology.assumed.end(), named) == 1);
  }
  // A stated value wins and is not listed; a model without known rates leaves the defaults, named as such.
  const Topology stated = node("H100 SXM", R"({"kind": "nvlink", "bandwidth": "450GBps", "latency": "1us"})");
  CHECK(std::none_of(stated.assumed.begin(), stated.assumed.end(), [](const std::string& a) { return a.starts_with("NVLink"); }));
  const Topology unknown = node("L4", R"({"kind": "nvlink"})");
  CHECK(unknown.racks[0].nodes[0].intra.bandwidth_Bps == doctest::Approx(300e9));
  CHECK(std::count(unknown.assumed.begin(), unknown.assumed.end(), "NVLink 300 GB/s per GPU: default") == 1);
  CHECK(std::count(unknown.assumed.begin(), unknown.assumed.end(), "GPU speed 1 Tflop/s: default") == 1);
}

TEST_CASE("an NVLink node without GPUDirect RDMA stages NCCL's network transfers over each GPU's own PCIe link to host memory") {
  TempDir dir;
  const auto staged = dir.write("staged.json", R"({"racks": [{"nodes": [{"name": "n", "count": 2, "gpus": 2, "gdr": false,
      "intra": {"kind": "nvlink"}, "host_pcie": {"bandwidth": "16GBps"}}]}]})");
  const Topology topology = load_topology(staged);
  const NodeSpec& node = topology.racks[0].nodes[0];
  CHECK_FALSE(node.gdr);
  CHECK(node.host_pcie.bandwidth_Bps == 16e9);
  CHECK(node.host_pcie.latency_s == 0.5e-6);  // PCIe's default
  PlatformModel nccl;
  nccl.nccl_staging = true;
  const std::vector<LinkUse> across{{"n0-gpu1-host-pcie", "up"}, {"n0-nic", "up"}, {"rack0-switch", "shared"}, {"n1-nic", "down"},
                                    {"n1-gpu0-host-pcie", "down"}};
  CHECK(embed_ring(topology, nccl, {"n0-gpu1", "n1-gpu0"}).routes[0] == across);
  // GPU to GPU stays on NVLink; MPI's routes do not stage.
  const std::vector<LinkUse> inside{{"n0-gpu0-nvlink", "up"}, {"n0-gpu1-nvlink", "down"}};
  CHECK(embed_ring(topology, nccl, {"n0-gpu0", "n0-gpu1"}).routes[0] == inside);
  const std::vector<LinkUse> direct{{"n0-nic", "up"}, {"rack0-switch", "shared"}, {"n1-nic", "down"}};
  CHECK(embed_ring(topology, PlatformModel{}, {"n0-gpu1", "n1-gpu0"}).routes[0] == direct);
  // The link's default is named; a node that does not stage has no such link to describe.
  const auto defaulted =
      dir.write("defaulted.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2, "gdr": false, "intra": {"kind": "nvlink"}}]}]})");
  const Topology plain = load_topology(defaulted);
  CHECK(plain.racks[0].nodes[0].host_pcie.bandwidth_Bps == 12e9);
  CHECK(std::count(plain.assumed.begin(), plain.assumed.end(), "GPU's PCIe link to host memory 12 GB/s, 0.5 us: default") == 1);
  const auto direct_node = dir.write("gdr.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2, "intra": {"kind": "nvlink"},
      "host_pcie": {"bandwidth": "16GBps"}}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(direct_node)) ==
        direct_node.string() + ": /racks/0/nodes/0/host_pcie: only staged network transfers on an nvlink node cross a GPU's own "
                               "PCIe link to host memory: give it with \"gdr\": false on an nvlink node, or leave it out");
}

TEST_CASE("a NIC beside no GPU (on the CPU's root complex, AWS p3dn) carries every GPU's traffic, staged in host memory") {
  TempDir dir;
  const auto p3dn = dir.write("p3dn.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 8, "nic_affinity": [null, null, null, null,
      null, null, null, null], "intra": {"kind": "nvlink"}}]}]})");
  const NodeSpec node = load_topology(p3dn).racks[0].nodes[0];
  CHECK_FALSE(node.gdr);  // NCCL's GDR level (PXB) is not met across the host
  for (int g = 0; g < 8; ++g) {
    CAPTURE(g);
    CHECK(nic_beside_gpu(node, g) == -1);
    CHECK(nic_of_gpu(node, g) == 0);
  }
  // Told otherwise (NCCL_NET_GDR_LEVEL=SYS), the node reads and writes GPU memory from the NIC.
  const auto forced = dir.write("forced.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 2, "nic_affinity": [null, null],
      "gdr": true, "intra": {"kind": "nvlink"}}]}]})");
  CHECK(load_topology(forced).racks[0].nodes[0].gdr);
  // Some GPU beside a NIC: the ring enters and leaves there, with GPUDirect RDMA.
  const auto half = dir.write("half.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 4, "nics": 2, "nic_affinity": [0, 0, null, null]}]}]})");
  CHECK(load_topology(half).racks[0].nodes[0].gdr);
  // A NIC no GPU sits beside or leaves through would be idle.
  const auto idle = dir.write("idle.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 4, "nics": 2, "nic_affinity": [0, 0, 0, 0]}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(idle)) ==
        idle.string() + ": /racks/0/nodes/0/nic_affinity: NIC 1 has no GPU beside it and no GPU leaves through it (a GPU with "
                        "null leaves through NIC g*nics/gpus): name it for at least one GPU");
}

TEST_CASE("cxi: HPE Slingshot's NICs through NCCL's OFI plugin are a transport of their own, at RoCE v2's payload share") {
  TempDir dir;
  const auto slingshot = dir.write("slingshot.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 4, "nics": 4, "nic_transport": "cxi",
      "nic": {"bandwidth": "200Gbps"}}]}]})");
  const NodeSpec node = load_topology(slingshot).racks[0].nodes[0];
  CHECK(node.nic_transport == NicTransport::cxi);
  CHECK(nic_transport_name(node.nic_transport) == "cxi");
  CHECK(node.nic.latency_s == 1e-6);  // verbs-class, not EFA's 10 us
  CHECK(transport_payload_share(NicTransport::cxi) == doctest::Approx(4096.0 / 4178.0));
  const auto unknown = dir.write("unknown.json", R"({"racks": [{"nodes": [{"name": "n", "nic_transport": "slingshot"}]}]})");
  CHECK(RINGSIM_ERROR_OF(load_topology(unknown)) ==
        unknown.string() + ": /racks/0/nodes/0/nic_transport: expected \"tcp\", \"ib\", \"roce\", \"efa\" or \"cxi\", found \"slingshot\"");
}
