#include "../../sim/platform/plan_file.h"
#include "../../sim/platform/platform_plan.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <fstream>

using namespace ringsim;
using ringsim::testing::TempDir;

namespace {

// One rack of NODES single-GPU nodes on 10 GbE: the shape of the 4096-rank benchmark.
Topology single_gpu_rack(int nodes) {
  Topology topology;
  topology.name = "rack-of-single-gpu-nodes";
  RackSpec rack;
  rack.name = "rack0";
  rack.switch_link = {2.0 * nodes * 1.25e9, 1e-6};
  rack.switch_nonblocking = true;
  for (int n = 0; n < nodes; ++n) {
    NodeSpec node;
    node.name = "node" + std::to_string(n);
    node.nic = {1.25e9, 1e-6};
    node.intra = {12e9, 0.5e-6};
    node.gpu_speed_flops = 1e12;
    rack.nodes.push_back(node);
  }
  topology.racks.push_back(rack);
  return topology;
}

// Two such racks of 2 nodes under a spine, their uplinks at one NIC's rate.
Topology two_single_gpu_racks() {
  Topology topology = single_gpu_rack(2);
  topology.racks.push_back(topology.racks[0]);
  topology.racks[1].name = "rack1";
  for (auto& node : topology.racks[1].nodes) node.name = "r1" + node.name;
  topology.racks[0].uplink = topology.racks[1].uplink = {1.25e9, 2e-6};
  topology.spine = LinkSpec{5e9, 1e-6};
  return topology;
}

std::vector<std::string> names(const PlatformPlan& plan, const Hops& hops) {
  std::vector<std::string> named;
  for (const Hop& hop : hops)
    named.push_back(plan.links()[hop.link].name + (hop.crossing == Crossing::up ? " up" : hop.crossing == Crossing::down ? " down" : ""));
  return named;
}

}  // namespace

TEST_CASE("the platform plan of N single-GPU nodes grows with N, not N squared: 4096 nodes fit in 10 MB") {
  const std::size_t size_1024 = plan_file_json(single_gpu_rack(1024), {}).size();
  const std::size_t size_4096 = plan_file_json(single_gpu_rack(4096), {}).size();
  CHECK(size_4096 <= 10u << 20);
  // Four times the nodes: four times the bytes (within the longer node numbers), where a route per
  // node pair would give sixteen.
  CHECK(static_cast<double>(size_4096) / static_cast<double>(size_1024) == doctest::Approx(4).epsilon(0.05));
  const PlatformPlan plan(single_gpu_rack(4096), {});
  CHECK(plan.links().size() == 2 * 4096 + 1);  // each node's bus and NIC, and the switch
}

TEST_CASE("a route between racks crosses NIC, switch, uplink, spine, uplink, switch, NIC, with process stacks at both ends") {
  const Topology topology = two_single_gpu_racks();
  PlatformModel model;
  model.process_stack = ProcessStack{1, false, 0};
  model.background = {{"rack0-uplink", "up", 0.5}};
  const PlatformPlan plan(topology, model);
  const HostRef* from = plan.find_host("node1-gpu0");
  const HostRef* to = plan.find_host("r1node0-gpu0");
  REQUIRE(from != nullptr);
  REQUIRE(to != nullptr);
  CHECK(names(plan, plan.route(*from, *to)) ==
        std::vector<std::string>{"node1-gpu0-stack up", "node1-nic up", "rack0-switch", "rack0-uplink up",
                                 "rack0-uplink-background-up", "spine", "rack1-uplink down", "rack1-switch", "r1node0-nic down",
                                 "r1node0-gpu0-stack down"});
  // The way back does not cross the loaded direction, so not its companion either.
  CHECK(names(plan, plan.route(*to, *from)) ==
        std::vector<std::string>{"r1node0-gpu0-stack up", "r1node0-nic up", "rack1-switch", "rack1-uplink up", "spine",
                                 "rack0-uplink down", "rack0-switch", "node1-nic down", "node1-gpu0-stack down"});
}

TEST_CASE("the plan file gives back the topology and model it was written from, doubles exactly") {
  Topology topology = single_gpu_rack(3);
  topology.racks[0].nodes[1].nic.bandwidth_Bps = 1.0 / 3.0 * 1e10;  // no short decimal form
  PlatformModel model;
  model.nic_half_duplex = true;
  model.process_stack = ProcessStack{0.7, true, 1.5e-6};
  model.background = {{"node0-nic", "both", 0.3}};
  TempDir dir;
  const auto file = dir.path() / "plan.json";
  std::ofstream(file) << plan_file_json(topology, model);
  const auto [read_topology, read_model] = read_plan_file(file);
  CHECK(plan_file_json(read_topology, read_model) == plan_file_json(topology, model));
  CHECK(read_topology.racks[0].nodes[1].nic.bandwidth_Bps == topology.racks[0].nodes[1].nic.bandwidth_Bps);
  CHECK(read_model.process_stack->latency_s == 1.5e-6);
}

TEST_CASE("an XML link's role read from the name the plan gave it is the plan's role, on every link") {
  // What an analysis of `ringsim platform`'s XML knows of its links: the roles the plan gave them.
  const Topology racks = two_single_gpu_racks();
  PlatformModel loaded;
  loaded.process_stack = ProcessStack{1, false, 0};
  loaded.background = {{"node0-nic", "both", 0.2}};
  PlatformModel uplink_loaded = loaded;
  uplink_loaded.background.push_back({"rack0-uplink", "up", 0.5});
  const Topology dgx = load_topology(RINGSIM_SOURCE_DIR "/topologies/dgx-a100-pair.json");  // NVLink ports, 8 NICs a node
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");      // one PCIe bus
  int checked = 0;
  for (const auto& [topology, model] : {std::pair<const Topology*, PlatformModel>{&racks, uplink_loaded}, {&dgx, PlatformModel{}}, {&seed, loaded}}) {
    const PlatformPlan plan(*topology, model);
    for (const PlanLink& link : plan.links()) {
      CAPTURE(link.name);
      const auto named = role_of_written_link(link.name);
      REQUIRE(named.has_value());
      CHECK(named->role == link.role);
      ++checked;
    }
    for (const PlanNode& node : plan.nodes())
      for (std::size_t g = 0; g < node.stacks.size(); ++g) CHECK(role_of_written_link(plan.links()[node.stacks[g]].name)->host == node.hosts[g]);
  }
  CHECK(checked > 40);
  CHECK_FALSE(role_of_written_link("eth0").has_value());  // a hand-written platform's link: no role
  CHECK_FALSE(role_of_written_link("nic").has_value());
}

namespace {

std::vector<std::string> rail_route(const PlatformPlan& plan, const char* from, const char* to) {
  const HostRef* a = plan.find_host(from);
  const HostRef* b = plan.find_host(to);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  return names(plan, plan.route(*a, *b));
}

}  // namespace

TEST_CASE("on a rail fabric a NIC reaches a NIC of its rail through the rail's leaf alone, another rail's over the spine") {
  const Topology rails = load_topology(RINGSIM_SOURCE_DIR "/topologies/rails-4x8-400G.json");
  REQUIRE(rails.rails.has_value());
  CHECK(rails.rails->rails == 8);
  // 4:1 over the leaf's four 400 Gb/s NICs: 400 Gb/s up and down.
  CHECK(rails.rails->uplink.bandwidth_Bps == doctest::Approx(400e9 / 8));
  const PlatformPlan plan(rails, {});
  CHECK(plan.links().size() == 4 * (8 + 8) + 8 + 8 + 1);  // per node 8 NVLink ports and 8 NICs; leaves, uplinks, spine
  CHECK(rail_route(plan, "node0-gpu3", "node2-gpu3") ==
        std::vector<std::string>{"node0-nic3 up", "rail3-leaf", "node2-nic3 down"});
  CHECK(rail_route(plan, "node0-gpu7", "node1-gpu0") ==
        std::vector<std::string>{"node0-nic7 up", "rail7-leaf", "rail7-leaf-uplink up", "rail-spine", "rail0-leaf-uplink down",
                                 "rail0-leaf", "node1-nic0 down"});
  // Inside a node nothing changes: the two GPUs' NVLink ports.
  CHECK(rail_route(plan, "node0-gpu7", "node0-gpu0") == std::vector<std::string>{"node0-gpu7-nvlink up", "node0-gpu0-nvlink down"});
}

TEST_CASE("under PXN a send to another rail's NIC goes over NVLink to the GPU beside that NIC and stays on that rail") {
  const Topology rails = load_topology(RINGSIM_SOURCE_DIR "/topologies/rails-4x8-400G.json");
  PlatformModel pxn;
  pxn.nccl_pxn = true;
  const PlatformPlan plan(rails, pxn);
  CHECK(rail_route(plan, "node0-gpu7", "node1-gpu0") ==
        std::vector<std::string>{"node0-gpu7-nvlink up", "node0-gpu0-nvlink down", "node0-nic0 up", "rail0-leaf", "node1-nic0 down"});
  // The receiving end is not proxied (NCCL receives locally), and same-rail sends are direct.
  CHECK(rail_route(plan, "node1-gpu0", "node0-gpu7") ==
        std::vector<std::string>{"node1-gpu0-nvlink up", "node1-gpu7-nvlink down", "node1-nic7 up", "rail7-leaf", "node0-nic7 down"});
  CHECK(rail_route(plan, "node0-gpu5", "node3-gpu5") == std::vector<std::string>{"node0-nic5 up", "rail5-leaf", "node3-nic5 down"});
  // The latency of a route is that of its links in path order (one Full zone in the XML).
  const HostRef* a = plan.find_host("node0-gpu7");
  const HostRef* b = plan.find_host("node1-gpu0");
  CHECK(plan.route_latency(*a, *b) == doctest::Approx(0.7e-6 + 0.7e-6 + 1e-6 + 0.5e-6 + 1e-6));
}

TEST_CASE("a rail fabric's links have their roles by name, and its plan file gives it back") {
  const Topology rails = load_topology(RINGSIM_SOURCE_DIR "/topologies/rails-4x8-400G.json");
  PlatformModel pxn;
  pxn.nccl_pxn = true;
  const PlatformPlan plan(rails, pxn);
  int rail_links = 0;
  for (const PlanLink& link : plan.links()) {
    CAPTURE(link.name);
    const auto named = role_of_written_link(link.name);
    REQUIRE(named.has_value());
    CHECK(named->role == link.role);
    rail_links += link.role == LinkRole::rail_leaf || link.role == LinkRole::rail_uplink || link.role == LinkRole::rail_spine ? 1 : 0;
  }
  CHECK(rail_links == 17);
  TempDir dir;
  const auto file = dir.path() / "plan.json";
  std::ofstream(file) << plan_file_json(rails, pxn);
  const auto [read_topology, read_model] = read_plan_file(file);
  CHECK(read_model.nccl_pxn);
  REQUIRE(read_topology.rails.has_value());
  CHECK(read_topology.rails->uplink.bandwidth_Bps == rails.rails->uplink.bandwidth_Bps);
  CHECK(plan_file_json(read_topology, read_model) == plan_file_json(rails, pxn));
}
