#include "../../topologies/cluster_layout.h"
#include "../../topologies/platform_xml.h"
#include "temp_files.h"

#include <doctest/doctest.h>

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

TEST_CASE("a switch without bandwidth is non-blocking and one with bandwidth is a shared backplane") {
  TempDir dir;
  auto open = dir.write("o.json", R"({"racks": [{"nodes": [{"name": "a", "nic": {"bandwidth": "25Gbps"}}, {"name": "b"}]}]})");
  const Topology nonblocking = load_topology(open);
  CHECK(nonblocking.racks[0].switch_nonblocking);
  CHECK(nonblocking.racks[0].switch_link.bandwidth_Bps == doctest::Approx(25e9 / 8));  // the fastest NIC
  CHECK(platform_xml(nonblocking).find(R"(<link id="rack0-switch" bandwidth="3125000000Bps" latency="1e-06s" sharing_policy="FATPIPE"/>)") !=
        std::string::npos);
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  CHECK_FALSE(seed.racks[0].switch_nonblocking);
  CHECK(platform_xml(seed).find(R"(<link id="rack0-switch" bandwidth="12500000000Bps" latency="1e-06s" sharing_policy="SHARED"/>)") !=
        std::string::npos);
}

TEST_CASE("a process stack puts one link per rank slot on the inter-node routes in both directions") {
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  const std::string shared = platform_xml(seed, ProcessStack{1, true, 0});
  CHECK(occurrences(shared, "-stack\" bandwidth=\"1250000000Bps\" latency=\"0s\" sharing_policy=\"SHARED\"") == 12);
  CHECK(shared.find(R"(<route src="node2-gpu0" dst="node2-router" symmetrical="NO"><link_ctn id="node2-gpu0-stack"/><link_ctn id="node2-nic" direction="UP"/></route>)") !=
        std::string::npos);
  CHECK(shared.find(R"(<route src="node2-router" dst="node2-gpu0" symmetrical="NO"><link_ctn id="node2-nic" direction="DOWN"/><link_ctn id="node2-gpu0-stack"/></route>)") !=
        std::string::npos);
  CHECK(shared.find(R"(<route src="node0-gpu0" dst="node0-gpu1"><link_ctn id="node0-intra"/></route>)") != std::string::npos);
  const std::string split = platform_xml(seed, ProcessStack{2, false, 0});
  CHECK(occurrences(split, "-stack\" bandwidth=\"2500000000Bps\" latency=\"0s\" sharing_policy=\"SPLITDUPLEX\"") == 12);
  CHECK(split.find(R"(<link_ctn id="node1-gpu3-stack" direction="UP"/>)") != std::string::npos);
}
