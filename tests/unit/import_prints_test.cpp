// Every public print of validate/prints/ (and the corpus logs with NCCL's INFO lines it names) reads
// as its kind, with exactly the facts its fixture (<name>.facts.json, written from the print by hand)
// records: a fact the reader misses, gets wrong or invents fails. The topology written from each
// loads as a compact topology.
#include "../../sim/import/imported_topology.h"
#include "../../sim/import/print_readers.h"
#include "../../sim/platform/topology.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace ringsim;

namespace {

const std::string kPrints = RINGSIM_SOURCE_DIR "/validate/prints/";

const char* fabric_key(GpuFabric fabric) {
  switch (fabric) {
    case GpuFabric::nvswitch: return "nvswitch";
    case GpuFabric::nvlink_mesh: return "nvlink_mesh";
    case GpuFabric::pcie: return "pcie";
  }
  return "";
}

nlohmann::json nics_json(const std::vector<NicFact>& nics) {
  nlohmann::json list = nlohmann::json::array();
  for (const NicFact& nic : nics) {
    nlohmann::json entry{{"name", nic.name}};
    if (nic.rate_Gbps) entry["rate_gbps"] = *nic.rate_Gbps;
    if (nic.transport) entry["transport"] = std::string(nic_transport_name(*nic.transport));
    if (nic.virtual_function) entry["virtual_function"] = true;
    list.push_back(entry);
  }
  return list;
}

// The facts a reader gave, in the fixtures' shape: a key for each fact stated, none for the others.
nlohmann::json facts_json(const PrintFacts& facts) {
  nlohmann::json json = nlohmann::json::object();
  if (facts.gpus) json["gpus"] = facts.gpus->value;
  if (facts.gpu_model) json["gpu_model"] = facts.gpu_model->value;
  if (facts.compute_capability) json["compute_capability"] = facts.compute_capability->value;
  if (facts.fabric) json["fabric"] = fabric_key(facts.fabric->value);
  if (facts.nvlinks_per_gpu) json["nvlinks_per_gpu"] = facts.nvlinks_per_gpu->value;
  if (facts.numa_nodes) json["numa_nodes"] = facts.numa_nodes->value;
  if (facts.pcie_switch_gpus) json["pcie_switch_gpus"] = facts.pcie_switch_gpus->value;
  if (!facts.nics.empty()) json["nics"] = nics_json(facts.nics);
  if (facts.used_nics) json["used_nics"] = facts.used_nics->value;
  if (facts.nic_affinity) {
    nlohmann::json affinity = nlohmann::json::array();
    for (const int nic : facts.nic_affinity->value) affinity.push_back(nic < 0 ? nlohmann::json() : nlohmann::json(nic));
    json["nic_affinity"] = affinity;
  }
  if (facts.gdr) json["gdr"] = facts.gdr->value;
  if (facts.nodes) json["nodes"] = facts.nodes->value;
  if (facts.leaf_switches) {
    json["leaf_switches"] = nlohmann::json::array();
    for (const LeafSwitch& leaf : facts.leaf_switches->value) json["leaf_switches"].push_back({{"name", leaf.name}, {"nodes", leaf.nodes}});
  }
  return json;
}

// NAME's print read against NAME.facts.json, fact by fact, and its topology loaded.
void check_print(const std::string& name) {
  std::ifstream in(kPrints + name + ".facts.json");
  REQUIRE(in.good());
  const nlohmann::json fixture = nlohmann::json::parse(in);
  const std::string print = kPrints + fixture.at("print").get<std::string>();
  const PrintFacts facts = read_print(print);
  CHECK(facts.kind == fixture.at("kind").get<std::string>());
  const nlohmann::json expected = fixture.at("facts");
  const nlohmann::json actual = facts_json(facts);
  // Plain loops over items (not structured bindings): doctest's CAPTURE and CHECK build lambdas, which
  // may not capture a structured binding before C++20 as clang 14 reads it.
  for (const auto& item : expected.items()) {
    const std::string key = item.key();
    CAPTURE(key);
    REQUIRE(actual.contains(key));
    CHECK(actual.at(key) == item.value());
  }
  for (const auto& item : actual.items()) {
    const std::string key = item.key();
    const std::string value = item.value().dump();
    CAPTURE(key);
    CHECK_MESSAGE(expected.contains(key), "the reader states a fact the fixture does not record: " << value);
  }
  const ImportedTopology imported = import_topology({facts}, ImportOptions{});
  const testing::TempDir dir;
  const Topology topology = load_topology(dir.write("imported.json", imported.topology.dump(2)));
  CHECK(topology.racks.front().nodes.front().gpus == expected.value("gpus", 1));
}

}  // namespace

#define RINGSIM_PRINT_CASE(name) \
  TEST_CASE("import: the print " name " gives the facts of its fixture") { check_print(name); }

RINGSIM_PRINT_CASE("aws-p4d-24xl-topo")
RINGSIM_PRINT_CASE("azure-ndv2-topo")
RINGSIM_PRINT_CASE("azure-ndv4-topo")
RINGSIM_PRINT_CASE("azure-ndv5-topo")
RINGSIM_PRINT_CASE("azure-ncv4-topo")
RINGSIM_PRINT_CASE("ibm-cloud-h100-nccl-topo")
RINGSIM_PRINT_CASE("mle-a100-8gpu-topo")
RINGSIM_PRINT_CASE("mle-h100-8gpu-topo")
RINGSIM_PRINT_CASE("mle-pair-nvlink-topo")
RINGSIM_PRINT_CASE("mle-pair-pcie-topo")
RINGSIM_PRINT_CASE("advancedclustering-mlx4-ibstat")
RINGSIM_PRINT_CASE("slurm-topology-conf-example")
RINGSIM_PRINT_CASE("aws-p4d-efa-2x8-info")
RINGSIM_PRINT_CASE("aws-p5-efa-2x8-info")
RINGSIM_PRINT_CASE("hkbu-100gib-8x4-info")
RINGSIM_PRINT_CASE("moc-h100-roce-2x1-info")
RINGSIM_PRINT_CASE("a100pcie-1x2-info")

TEST_CASE("import: every fixture of validate/prints has its test case") {
  int fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kPrints))
    if (entry.path().string().ends_with(".facts.json")) ++fixtures;
  CHECK(fixtures == 17);
}
