// The facts of a trace's NCCL INFO lines set against a scenario's topology (sim/import/log_facts_on_topology.h):
// filled where a node group leaves the key out, a warning where it states a contradicting value.
#include "../../sim/import/log_facts_on_topology.h"
#include "../../sim/import/print_readers.h"
#include "../../sim/platform/topology.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// Two nodes of 4 GPUs (localRanks), two 200 Gb/s InfiniBand NICs, GPUDirect RDMA on the hops.
const std::string kLog = "h1:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0\n"
                         "h1:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>\n"
                         "h1:1:1 [0] NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=200000 context=0x1\n"
                         "h1:1:1 [0] NCCL INFO NET/IB: [1] mlx5_1:uverbs1:1/IB provider=Mlx5 speed=200000 context=0x1\n"
                         "h1:1:1 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/1/GDRDMA\n";

LogFactsOnTopology on_group(const nlohmann::json& group, const std::string& log = kLog) {
  const nlohmann::json topology = {{"racks", {{{"nodes", {group}}}}}};
  return log_facts_on_topology(topology, "t.json", read_nccl_info_print(log, "log.txt"), log);
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("log facts fill every key a node group leaves out, one line each, and the topology then loads") {
  const LogFactsOnTopology facts = on_group({{"name", "n"}, {"count", 2}});
  const nlohmann::json group = facts.topology["racks"][0]["nodes"][0];
  CHECK(group["gpus"] == 4);
  CHECK(group["nics"] == 2);
  CHECK(group["nic_transport"] == "ib");
  CHECK(group["nic"]["bandwidth"] == "200Gbps");
  CHECK(group["gdr"] == true);
  CHECK(facts.warnings.empty());
  REQUIRE(facts.filled.size() == 5);
  CHECK(facts.filled[0] == "4 GPUs per node (\"gpus\": 4; log.txt:1: comm 0x1 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0)");
  CHECK(facts.filled[1] == "2 NICs per node (\"nics\": 2; log.txt:2: NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0. ...)");
  const Topology topology = read_topology_json(facts.topology, "t.json");
  const NodeSpec& node = topology.racks.at(0).nodes.at(0);
  CHECK(node.nics == 2);
  CHECK(node.gpus == 4);
  CHECK(node.nic.bandwidth_Bps == doctest::Approx(200e9 / 8));
  CHECK(node.nic_transport == NicTransport::ib);
}

TEST_CASE("log facts warn where a node group states what the log contradicts, naming the key, both values and the line") {
  const LogFactsOnTopology facts = on_group({{"name", "n"}, {"count", 2}, {"gpus", 2}, {"nics", 1}, {"nic", {{"bandwidth", "100Gbps"}}},
                                             {"nic_transport", "roce"}, {"gdr", false}});
  CHECK(facts.filled.empty());
  CHECK(facts.topology == nlohmann::json({{"racks", {{{"nodes", {{{"name", "n"}, {"count", 2}, {"gpus", 2}, {"nics", 1},
                                                                   {"nic", {{"bandwidth", "100Gbps"}}}, {"nic_transport", "roce"}, {"gdr", false}}}}}}}}));
  REQUIRE(facts.warnings.size() == 3);
  CHECK(facts.warnings[0] == "t.json: /racks/0/nodes/0/gpus is 2, but the log says 4 GPUs per node (log.txt:1: comm 0x1 rank 0 nRanks 8 "
                             "nNodes 2 localRanks 4 localRank 0)");
  CHECK(has(facts.warnings, "t.json: /racks/0/nodes/0/nics is 1, but the log says 2 NICs per node (log.txt:2: "));
  CHECK_MESSAGE(has(facts.warnings, "t.json: /racks/0/nodes/0/nic/bandwidth is \"100Gbps\", but the log says NICs of 200 Gbit/s (log.txt:2: "), facts.warnings[2]);
  // The transport and GPUDirect RDMA stated are checked against the hops by validate (trace_learning.h), not here.
  CHECK_FALSE(has(facts.warnings, "nic_transport"));
  CHECK_FALSE(has(facts.warnings, "gdr"));
}

TEST_CASE("log facts leave a node group that states agreeing values as it is: more GPUs than the run's ranks agree") {
  const nlohmann::json group = {{"name", "n"}, {"count", 2}, {"gpus", 8}, {"nics", 2}, {"nic", {{"bandwidth", "200Gbps"}}},
                                {"nic_transport", "ib"}, {"gdr", true}};
  const LogFactsOnTopology facts = on_group(group);
  CHECK(facts.filled.empty());
  CHECK(facts.warnings.empty());
  CHECK(facts.topology["racks"][0]["nodes"][0] == group);
}

TEST_CASE("log facts take two GPUs that read each other's memory for an NVLink pair") {
  const std::string pair = "m:1:1 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/direct pointer/read\n"
                           "m:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read\n";
  const LogFactsOnTopology left_out = on_group({{"name", "m"}, {"gpus", 2}}, pair);
  CHECK(left_out.topology["racks"][0]["nodes"][0]["intra"] == nlohmann::json({{"kind", "nvlink"}}));
  CHECK(has(left_out.filled, "GPUs on NVLink (P2P read) (\"intra/kind\": \"nvlink\"; log.txt:1: Channel 00/0 : 1[1] -> 0[0] via P2P/direct pointer/read)"));
  const LogFactsOnTopology on_pcie = on_group({{"name", "m"}, {"gpus", 2}, {"intra", {{"kind", "pcie"}}}}, pair);
  CHECK(has(on_pcie.warnings, "t.json: /racks/0/nodes/0/intra/kind is \"pcie\", but the log says GPUs on NVLink (P2P read)"));
}
