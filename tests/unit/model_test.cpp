#include "../../sim/model/model_settings.h"
#include "../../sim/platform/gpu_generation.h"
#include "../../sim/platform/topology.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;
using ringsim::testing::TempDir;

TEST_CASE("the default model is SimGrid's SMPI model with its factors and cross traffic") {
  CHECK(ModelSettings{}.cfg_arguments() ==
        std::vector<std::string>{"--cfg=network/model:SMPI", "--cfg=network/crosstraffic:1"});
}

TEST_CASE("factors none and raw simgrid settings become --cfg arguments") {
  const auto value = nlohmann::json::parse(
      R"({"network": "CM02", "crosstraffic": false, "factors": "none", "simgrid": {"network/TCP-gamma": 0, "smpi/async-small-thresh": "1024"}})");
  const ModelSettings model = read_model(value, "s.json", "/model", ModelSettings{});
  CHECK(model.cfg_arguments() == std::vector<std::string>{"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                                          "--cfg=smpi/bw-factor:0:1", "--cfg=smpi/lat-factor:0:1",
                                                          "--cfg=network/TCP-gamma:0",
                                                          "--cfg=smpi/async-small-thresh:1024"});
}

TEST_CASE("a --model file overrides only the keys it names") {
  TempDir dir;
  ModelSettings scenario_model;
  scenario_model.network = "CM02";
  scenario_model.simgrid = {{"network/TCP-gamma", "0"}};
  auto file = dir.write("m.json", R"({"crosstraffic": false, "simgrid": {"network/TCP-gamma": "4194304"}})");
  const ModelSettings merged = load_model_file(file, scenario_model);
  CHECK(merged.network == "CM02");
  CHECK_FALSE(merged.crosstraffic);
  CHECK(merged.simgrid == std::vector<std::pair<std::string, std::string>>{{"network/TCP-gamma", "4194304"}});
  auto bad = dir.write("bad.json", R"({"simgrid": {"a b": 1}})");
  CHECK(RINGSIM_ERROR_OF(load_model_file(bad, scenario_model)) ==
        bad.string() + ": /simgrid/a b: a SimGrid setting name has no spaces, ':' or '='");
}

TEST_CASE("engine: auto runs SMPI below kMaestroAutoRanks ranks and maestro from there, and mpi always on SMPI") {
  ModelSettings model;
  CHECK(model.engine == "auto");
  CHECK(model.engine_for(kMaestroAutoRanks - 1, algorithm_row("ring")) == "smpi");
  CHECK(model.engine_for(kMaestroAutoRanks, algorithm_row("ring")) == "maestro");
  CHECK(model.engine_for(4096, algorithm_row("mpi")) == "smpi");
  CHECK_FALSE(model.to_json().contains("engine"));  // goldens print the model: auto goes unsaid

  model = read_model(nlohmann::json::parse(R"({"engine": "s4u"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.engine_for(2, algorithm_row("ring")) == "s4u");
  CHECK(model.to_json().at("engine") == "s4u");
  model = read_model(nlohmann::json::parse(R"({"engine": "smpi"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.engine_for(4096, algorithm_row("ring")) == "smpi");
  model = read_model(nlohmann::json::parse(R"({"engine": "maestro"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.engine_for(2, algorithm_row("ring")) == "maestro");
  CHECK(model.engine_for(2, algorithm_row("mpi")) == "smpi");
  CHECK(model.to_json().at("engine") == "maestro");

  CHECK(RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(R"({"engine": "fast"})"), "s.json", "/model", ModelSettings{})) ==
        "s.json: /model/engine: unknown engine \"fast\"; expected one of auto, smpi, s4u, maestro");
}

TEST_CASE("nccl: the model key is read strictly kept only when given and errors name file and path") {
  CHECK_FALSE(ModelSettings{}.to_json().contains("nccl"));  // goldens print the model: absent stays absent
  const ModelSettings model = read_model(
      nlohmann::json::parse(R"({"nccl": {"version": "2.23.4", "channels": 4, "protocol": "LL", "buffsize": "8MiB"}})"), "s.json",
      "/model", ModelSettings{});
  REQUIRE(model.nccl.has_value());
  CHECK(model.nccl->version.minor == 23);
  CHECK(model.nccl->channels == 4);
  CHECK(model.nccl->protocol == NcclProtocol::ll);
  CHECK(model.nccl->buffsize == 8u << 20);
  CHECK(model.to_json().at("nccl").at("protocol") == "LL");
  CHECK(model.nccl->version_given);  // a trace's header cannot override it (validate, calibrate)
  CHECK_FALSE(read_model(nlohmann::json::parse(R"({"nccl": {"channels": 1}})"), "s.json", "/model", ModelSettings{})
                  .nccl->version_given);
  // A later model file overrides key by key.
  const ModelSettings merged =
      read_model(nlohmann::json::parse(R"({"nccl": {"protocol": "auto"}})"), "m.json", "", model);
  CHECK(merged.nccl->channels == 4);
  CHECK(merged.nccl->protocol == NcclProtocol::auto_choice);
  // A trace header's version text: the build suffix and patch level change nothing modelled.
  REQUIRE(parse_nccl_version("2.6.4+cuda10.1").has_value());
  CHECK(parse_nccl_version("2.6.4+cuda10.1")->minor == 6);
  CHECK_FALSE(parse_nccl_version("2.3.7+cuda9.0").has_value());
  CHECK_FALSE(parse_nccl_version("2.x").has_value());
  // A trace's GPU names: the generation NCCL's model tells apart (Turing as Volta, Ada as Ampere).
  CHECK(gpu_compute_capability("NVIDIA H100 80GB HBM3") == 90);
  CHECK(gpu_compute_capability("A100-SXM4-40GB") == 80);
  CHECK(gpu_compute_capability("NVIDIA L40S") == 80);
  CHECK(gpu_compute_capability("Tesla V100-SXM2-32GB") == 70);
  CHECK(gpu_compute_capability("GeForce RTX 2080 Ti") == 70);
  CHECK(gpu_compute_capability("NVIDIA B200") == 100);
  CHECK_FALSE(gpu_compute_capability("AMD Instinct MI250X").has_value());
  // Defaults: 2.18, channels from the topology, auto, 4 MiB.
  CHECK(ModelSettings{}.effective_nccl().buffsize == 4u << 20);
  CHECK_FALSE(ModelSettings{}.effective_nccl().channels.has_value());

  auto error = [](const char* text) {
    return RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(text), "s.json", "/model", ModelSettings{}));
  };
  CHECK(error(R"({"nccl": {"version": "2.3"}})") ==
        "s.json: /model/nccl/version: expected an NCCL version from 2.4 on, such as \"2.18\" or \"2.23.4\", found \"2.3\"");
  CHECK(error(R"({"nccl": {"version": "2.4.7", "protocol": "LL128"}})") ==
        "s.json: /model/nccl/protocol: LL128 came with NCCL 2.5; version is \"2.4.7\" (use \"LL\" or \"Simple\")");
  CHECK(error(R"({"nccl": {"protocol": "ll"}})") ==
        "s.json: /model/nccl/protocol: expected \"auto\", \"LL\", \"LL128\" or \"Simple\", found \"ll\"");
  CHECK(error(R"({"nccl": {"channels": 0}})").find("s.json: /model/nccl/channels: expected an integer from 1 to 32") == 0);
  CHECK(error(R"({"nccl": {"buffsize": "1000"}})").find("s.json: /model/nccl/buffsize: expected NCCL_BUFFSIZE") == 0);
  CHECK(error(R"({"nccl": {"chanels": 2}})").find("s.json: /model/nccl/chanels") == 0);
}

TEST_CASE("nic_efficiency scales the NICs only, after nic_bandwidth, and must be above 0 and at most 1") {
  // What calibration writes: the links inside nodes and the switches keep their rates.
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  const ModelSettings model =
      read_model(nlohmann::json::parse(R"({"nic_bandwidth": "25Gbps", "nic_efficiency": 0.5})"), "s.json", "/model", ModelSettings{});
  CHECK(model.reshapes_platform());
  const Topology shaped = model.shape(seed);
  CHECK(shaped.racks[0].nodes[0].nic.bandwidth_Bps == doctest::Approx(25e9 / 8 * 0.5));
  CHECK(shaped.racks[0].nodes[0].intra.bandwidth_Bps == seed.racks[0].nodes[0].intra.bandwidth_Bps);
  CHECK(model.to_json().at("nic_efficiency") == 0.5);
  CHECK(RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(R"({"nic_efficiency": 1.5})"), "s.json", "/model", ModelSettings{})) ==
        "s.json: /model/nic_efficiency: expected the share of the NIC's bandwidth traffic gets, above 0 and at most 1, "
        "such as 0.94, found 1.5");
}

TEST_CASE("link_latency_scale multiplies every link's latency, after nic_latency, and nothing else") {
  // What calibration fits for nccl_ring on a trace's latency-bound sizes.
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  const ModelSettings model = read_model(nlohmann::json::parse(R"({"link_latency_scale": 0.5, "nic_latency": "3us"})"),
                                         "s.json", "/model", ModelSettings{});
  CHECK(model.reshapes_platform());
  const Topology shaped = model.shape(seed);
  const NodeSpec& node = shaped.racks[0].nodes[0];
  CHECK(node.nic.latency_s == doctest::Approx(1.5e-6));
  CHECK(node.intra.latency_s == doctest::Approx(0.5 * seed.racks[0].nodes[0].intra.latency_s));
  CHECK(shaped.racks[0].switch_link.latency_s == doctest::Approx(0.5 * seed.racks[0].switch_link.latency_s));
  CHECK(node.nic.bandwidth_Bps == seed.racks[0].nodes[0].nic.bandwidth_Bps);
  CHECK(node.intra.bandwidth_Bps == seed.racks[0].nodes[0].intra.bandwidth_Bps);
  CHECK(model.to_json().at("link_latency_scale") == 0.5);
  for (const char* bad : {R"({"link_latency_scale": 0})", R"({"link_latency_scale": -1})", R"({"link_latency_scale": "half"})"})
    CHECK(RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(bad), "s.json", "/model", ModelSettings{}))
              .find("s.json: /model/link_latency_scale: expected a positive factor") == 0);
}

TEST_CASE("nic_latency sets every NIC's latency and nothing else, and reads back as written") {
  // What calibration writes for the fitted per-step latency (smpi/lat-factor would be inert under CM02).
  const Topology seed = load_topology(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json");
  const ModelSettings model = read_model(nlohmann::json::parse(R"({"nic_latency": "2.5us"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.reshapes_platform());
  const Topology shaped = model.shape(seed);
  CHECK(shaped.racks[0].nodes[0].nic.latency_s == doctest::Approx(2.5e-6));
  CHECK(shaped.racks[0].nodes[0].nic.bandwidth_Bps == seed.racks[0].nodes[0].nic.bandwidth_Bps);
  CHECK(shaped.racks[0].nodes[0].intra.latency_s == seed.racks[0].nodes[0].intra.latency_s);
  CHECK(shaped.racks[0].switch_link.latency_s == seed.racks[0].switch_link.latency_s);
  CHECK(model.to_json().at("nic_latency") == "2.5us");
  CHECK(RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(R"({"nic_latency": 3})"), "s.json", "/model", ModelSettings{})).find(
            "s.json: /model/nic_latency: ") == 0);
}

TEST_CASE("model: a process stack as the results JSON records it reads back (ringsim report reads it there)") {
  ModelSettings model;
  model.process_stack = ProcessStack{2, false, 5e-6};
  const ModelSettings read = read_model(model.to_json(), "r.json", "/variants/1/model", ModelSettings{});
  REQUIRE(read.process_stack);
  CHECK(read.process_stack->nic_ratio == 2);
  CHECK_FALSE(read.process_stack->shared);
  CHECK(read.process_stack->latency_s == doctest::Approx(5e-6));
}

TEST_CASE("a topology's gpu_model names NCCL's GPU generation unless the scenario, a model file or a trace does") {
  Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  ModelSettings model;
  model.adopt_topology_gpus(topology);
  CHECK(model.effective_nccl().compute_capability == 90);
  ModelSettings named;
  NcclSettings ampere;
  ampere.compute_capability = 80;
  ampere.compute_capability_given = true;
  named.nccl = ampere;
  named.adopt_topology_gpus(topology);
  CHECK(named.effective_nccl().compute_capability == 80);
  // Nodes of two generations name none.
  topology.racks[0].nodes[0].gpu_compute_capability = 80;
  ModelSettings mixed;
  mixed.adopt_topology_gpus(topology);
  CHECK(mixed.effective_nccl().compute_capability == NcclSettings{}.compute_capability);
}

TEST_CASE("NCCL's PXN shapes the platform under the NCCL network model from 2.12 unless \"pxn\" is false") {
  auto model_of = [](const char* text) { return read_model(nlohmann::json::parse(text), "s.json", "/model", ModelSettings{}); };
  CHECK(model_of(R"({"network": "NCCL", "nccl": {"version": "2.12"}})").platform_model().nccl_pxn);
  CHECK_FALSE(model_of(R"({"network": "NCCL", "nccl": {"version": "2.11"}})").platform_model().nccl_pxn);  // before PXN
  const ModelSettings disabled = model_of(R"({"network": "NCCL", "nccl": {"version": "2.18", "pxn": false}})");
  CHECK_FALSE(disabled.platform_model().nccl_pxn);
  CHECK(disabled.to_json().at("nccl").at("pxn") == false);
  CHECK_FALSE(model_of(R"({"nccl": {"version": "2.18"}})").to_json().at("nccl").contains("pxn"));
  // Under another network model NCCL's transports do not shape the routes (as with staging).
  CHECK_FALSE(model_of(R"({"network": "CM02", "nccl": {"version": "2.18"}})").platform_model().nccl_pxn);
}
