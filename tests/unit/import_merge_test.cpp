// ringsim import beyond one print: facts of several prints merged (the port's rate from ibstat over
// the XML's, with a warning naming both), racks from topology.conf, --nodes, the description's sources
// and defaults; and the shapes users paste that the public prints do not all show (ANSI codes and a
// NIC legend in topo -m, virtual functions and Ethernet ports in ibstat, hostlists).
#include "../../sim/import/hostlist.h"
#include "../../sim/import/imported_topology.h"
#include "../../sim/import/print_readers.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

const std::string kPrintsDir = RINGSIM_SOURCE_DIR "/validate/prints/";

// ibstat of eight HDR/NDR ports named as the IBM Cloud H100 dump names its NICs, each at RATE.
std::string ibstat_of_eight(int rate) {
  std::string text;
  for (int n = 0; n < 8; ++n)
    text += "CA 'mlx5_" + std::to_string(n) + "'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Active\n\t\tRate: " +
            std::to_string(rate) + "\n\t\tLink layer: Ethernet\n";
  return text;
}

// The facts of a print of TEXT, read from a scratch file as the command reads it.
PrintFacts facts_of(const std::string& text) {
  const testing::TempDir dir;
  return read_print(dir.write("print.txt", text));
}

// The one NIC of an ibstat or ibv_devinfo print of TEXT.
NicFact only_nic_of(const std::string& text) {
  const PrintFacts facts = facts_of(text);
  REQUIRE(facts.nics.size() == 1);
  return facts.nics.front();
}

}  // namespace

TEST_CASE("import: ibstat's port rate wins over the XML's, with a warning naming both prints") {
  const testing::TempDir dir;
  const auto ibstat = dir.write("ibstat.txt", ibstat_of_eight(400));
  const std::vector<PrintFacts> prints{read_print(kPrintsDir + "ibm-cloud-h100-nccl-topo.xml"), read_print(ibstat)};
  const ImportedTopology imported = import_topology(prints, ImportOptions{});
  REQUIRE(imported.warnings.size() == 1);
  CHECK(imported.warnings[0].starts_with("NIC rate: " + ibstat.string() + ":1 says 400 Gb/s, " + kPrintsDir + "ibm-cloud-h100-nccl-topo.xml:"));
  CHECK(imported.warnings[0].ends_with("says 200 Gb/s; using 400 Gb/s"));
  const auto& node = imported.topology["racks"][0]["nodes"][0];
  CHECK(node["nic"]["bandwidth"] == "400Gbps");
  CHECK(node["nic_transport"] == "roce");
  CHECK(node["intra"]["bandwidth"] == "450GBps");
  const std::string description = imported.topology["description"];
  CHECK(description.find("400 Gb/s per NIC (" + ibstat.string() + ":1)") != std::string::npos);
}

TEST_CASE("import: topology.conf's leaf switches become racks of the node the other prints describe") {
  const std::vector<PrintFacts> prints{read_print(kPrintsDir + "mle-h100-8gpu-topo.txt"), read_print(kPrintsDir + "slurm-topology-conf-example.conf")};
  const ImportedTopology imported = import_topology(prints, ImportOptions{"cluster", std::nullopt});
  CHECK(imported.warnings.empty());
  const auto& racks = imported.topology["racks"];
  REQUIRE(racks.size() == 3);
  for (const auto& rack : racks) {
    CHECK(rack["nodes"][0]["count"] == 6);
    CHECK(rack["nodes"][0]["gpus"] == 8);
    CHECK(rack["nodes"][0]["name"] == rack["name"].get<std::string>() + "-node");
  }
  CHECK(imported.topology["name"] == "cluster");
}

TEST_CASE("import: --nodes gives the count no print gives, and over a log's with a warning") {
  const auto alone = import_topology({read_print(kPrintsDir + "mle-a100-8gpu-topo.txt")}, ImportOptions{"x", 4});
  CHECK(alone.warnings.empty());
  CHECK(alone.topology["racks"][0]["nodes"][0]["count"] == 4);
  const auto log = import_topology({read_print(RINGSIM_SOURCE_DIR "/validate/traces/nccl-corpus/hkbu-100gib-8x4-info.txt")}, ImportOptions{"x", 16});
  REQUIRE(log.warnings.size() == 1);
  CHECK(log.warnings[0].starts_with("nodes: --nodes says 16, "));
  CHECK(log.topology["racks"][0]["nodes"][0]["count"] == 16);
}

TEST_CASE("import: the description names each fact's print and line, and the defaults no print states") {
  const auto imported = import_topology({read_print(kPrintsDir + "mle-a100-8gpu-topo.txt")}, ImportOptions{});
  const std::string description = imported.topology["description"];
  CHECK(description.find("8 GPUs per node (" + kPrintsDir + "mle-a100-8gpu-topo.txt:2)") != std::string::npos);
  CHECK(description.find("Defaults (no print states them): NVLink's line rate of Ampere") != std::string::npos);
  CHECK(description.find("10 Gb/s per NIC") != std::string::npos);
}

TEST_CASE("import: nvidia-smi topo -m with ANSI codes, spaces for tabs and a NIC legend names each GPU's NIC") {
  const PrintFacts facts = facts_of("\t\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
                                    "GPU0     X      NV4     NV4     NV4     PIX     SYS     0-31    0               N/A\n"
                                    "GPU1    NV4      X      NV4     NV4     PXB     SYS     0-31    0               N/A\n"
                                    "GPU2    NV4     NV4      X      NV4     SYS     PIX     32-63   1               N/A\n"
                                    "GPU3    NV4     NV4     NV4      X      SYS     PXB     32-63   1               N/A\n"
                                    "NIC0    PIX     PXB     SYS     SYS      X      SYS\n"
                                    "NIC1    SYS     SYS     PIX     PXB     SYS      X\n\n"
                                    "Legend:\n\n  X    = Self\n  NV#  = Connection traversing a bonded set of # NVLinks\n\n"
                                    "NIC Legend:\n\n  NIC0: bnxt_re0\n  NIC1: bnxt_re1\n");
  CHECK(facts.kind == "nvidia-smi-topo");
  REQUIRE(facts.gpus);
  CHECK(facts.gpus->value == 4);
  REQUIRE(facts.fabric);
  CHECK(facts.fabric->value == GpuFabric::nvlink_mesh);
  CHECK(facts.nvlinks_per_gpu->value == 12);
  REQUIRE(facts.used_nics);
  CHECK(facts.used_nics->value == std::vector<std::string>{"bnxt_re0", "bnxt_re1"});
  CHECK(facts.nic_affinity->value == std::vector<int>{0, 0, 1, 1});
  CHECK(facts.nics[0].transport == NicTransport::roce);
}

TEST_CASE("import: ibstat's Ethernet ports are RoCE, its virtual functions are marked, a down port is noted") {
  const PrintFacts facts = facts_of("CA 'mlx5_0'\n\tCA type: MT4124\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Active\n\t\tRate: 200\n"
                                    "\t\tLink layer: InfiniBand\n"
                                    "CA 'mlx5_1'\n\tCA type: MT4125\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: Down\n\t\tRate: 10\n"
                                    "\t\tLink layer: Ethernet\n");
  REQUIRE(facts.nics.size() == 2);
  CHECK(facts.nics[0].virtual_function);
  CHECK(facts.nics[0].transport == NicTransport::ib);
  CHECK(facts.nics[0].rate_Gbps == 200);
  CHECK_FALSE(facts.nics[1].virtual_function);
  CHECK(facts.nics[1].transport == NicTransport::roce);
  REQUIRE(facts.notes.size() == 1);
  CHECK(facts.notes[0].ends_with("mlx5_1 has no active port"));
}

TEST_CASE("import: ibv_devinfo -v gives the rate from the active width and lane speed") {
  const NicFact nic = only_nic_of("hca_id:\tmlx5_0\n\ttransport:\t\t\tInfiniBand (0)\n\tvendor_part_id:\t\t\t4129\n"
                                  "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tactive_width:\t\t4X (2)\n"
                                  "\t\t\tactive_speed:\t\t100.0 Gbps (128)\n\t\t\tlink_layer:\t\tInfiniBand\n");
  CHECK(nic.rate_Gbps == 400);
  CHECK(nic.transport == NicTransport::ib);
}

TEST_CASE("import: Slurm hostlists expand with their zero padding, several ranges and brackets") {
  std::string why;
  CHECK(expand_hostlist("node[01-03]", why) == std::vector<std::string>{"node01", "node02", "node03"});
  CHECK(expand_hostlist("gpu[1-2,7],login1", why) == std::vector<std::string>{"gpu1", "gpu2", "gpu7", "login1"});
  CHECK(expand_hostlist("r[1-2]n[1-2]", why) == std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"});
  CHECK_FALSE(expand_hostlist("node[05-01]", why));
  CHECK(why == "expected a range whose end is not below its start, found \"05-01\"");
  CHECK_FALSE(expand_hostlist("node[1-3", why));
  CHECK_FALSE(expand_hostlist("n[1-99999999]", why));
  // A long pattern times many hosts was a gigabyte (a fuzz finding): patterns are host-name sized.
  CHECK_FALSE(expand_hostlist("n[1-99999]" + std::string(3000, 'x'), why));
  CHECK(why == "expected a host name pattern of at most 256 characters, found one of 3010");
  // Five groups of 16 to 18 name 1.25 million hosts: refused from their count, before any name is built
  // (a fuzz finding built 78,336 names of 200 characters first).
  CHECK_FALSE(expand_hostlist("a[01-16]b[01-16]c[00-16]d[01-16]e[15-32]", why));
  CHECK(why == "expected at most 100000 hosts in a hostlist");
  CHECK(expand_hostlist("a[1-2]b[1-3]", why, 6)->size() == 6);
}

TEST_CASE("import: p4d's log and AWS's file agree on the NICs beside the GPUs though they number them apart") {
  const std::vector<PrintFacts> prints{read_print(RINGSIM_SOURCE_DIR "/validate/traces/nccl-corpus/aws-p4d-efa-2x8-info-prefixed.txt"),
                                       read_print(kPrintsDir + "aws-p4d-24xl-topo.xml")};
  CHECK(prints[0].nic_affinity->value == std::vector<int>{1, 1, 3, 3, 0, 0, 2, 2});
  CHECK(prints[1].nic_affinity->value == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3});
  const ImportedTopology imported = import_topology(prints, ImportOptions{});
  CHECK(imported.warnings.empty());
  const auto& node = imported.topology["racks"][0]["nodes"][0];
  CHECK(node["nics"] == 4);
  CHECK(node["nic_transport"] == "efa");
  CHECK(node["gpu_model"] == "A100-SXM4-40GB");
  // Eight SXM GPUs: an HGX board's NVSwitch, 12 links of Ampere's 25 GB/s, stated as a default.
  CHECK(node["intra"]["bandwidth"] == "300GBps");
  const std::string description = imported.topology["description"];
  CHECK(description.find("NVSwitch: eight A100-SXM4-40GB GPUs sit on an HGX board") != std::string::npos);
  CHECK(description.find("10 Gb/s per NIC") != std::string::npos);  // no print gives EFA's rate
}

TEST_CASE("import: ibv_devinfo of an EFA device (link layer Unspecified) is EFA by its name") {
  const NicFact nic = only_nic_of("hca_id:\tefa_0\n\ttransport:\t\t\tunknown (4)\n\tvendor_part_id:\t\t\t61345\n"
                                  "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tlink_layer:\t\tUnspecified\n");
  CHECK(nic.transport == NicTransport::efa);
  CHECK_FALSE(nic.rate_Gbps);
}

TEST_CASE("import: Slingshot's cxi NICs get their own transport, cxi") {
  const ImportedTopology imported = import_topology({facts_of("\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                                                              "GPU0\t X \tNV6\tPIX\tSYS\t0-15\t0\t\tN/A\nGPU1\tNV6\t X \tSYS\tPIX\t16-31\t1\t\tN/A\n\n"
                                                              "NIC Legend:\n\n  NIC0: cxi0\n  NIC1: cxi1\n")}, ImportOptions{});
  CHECK(imported.topology["racks"][0]["nodes"][0]["nics"] == 2);
  CHECK(imported.topology["racks"][0]["nodes"][0]["nic_transport"] == "cxi");
}

TEST_CASE("import: NCCL's log over the OFI plugin on Slingshot (provider cxi) gives cxi NICs, not EFA's") {
  const PrintFacts facts = facts_of("host1:1:1 [0] NCCL INFO NET/OFI Selected Provider is cxi, fabric is cxi (found 4 nics)\n"
                                    "host1:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/AWS Libfabric/1/GDRDMA\n");
  REQUIRE(facts.nics.size() == 2);
  const NicFact first = facts.nics[0];
  CHECK(first.name == "cxi0");
  REQUIRE(first.transport);
  CHECK(*first.transport == NicTransport::cxi);
}

TEST_CASE("import: scontrol show topology's lines (Level=, an upper switch listing every node below it) give the leaves") {
  const PrintFacts facts = facts_of("SwitchName=s0 Level=0 LinkSpeed=1 Nodes=dev[0-5]\n"
                                    "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=dev[6-11]\n"
                                    "SwitchName=s2 Level=1 LinkSpeed=1 Nodes=dev[0-11] Switches=s[0-1]\n");
  REQUIRE(facts.nodes);
  CHECK(facts.nodes->value == 12);
  REQUIRE(facts.leaf_switches);
  CHECK(facts.leaf_switches->value == std::vector<LeafSwitch>{{"s0", 6}, {"s1", 6}});
}
