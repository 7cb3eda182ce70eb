#include "../../sim/model/model_settings.h"
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

TEST_CASE("engine: auto runs SMPI below kS4uAutoRanks ranks and S4U from there, and mpi always on SMPI") {
  ModelSettings model;
  CHECK(model.engine == "auto");
  CHECK(model.engine_for(kS4uAutoRanks - 1, "ring") == "smpi");
  CHECK(model.engine_for(kS4uAutoRanks, "ring") == "s4u");
  CHECK(model.engine_for(4096, "mpi") == "smpi");
  CHECK_FALSE(model.to_json().contains("engine"));  // goldens print the model: auto goes unsaid

  model = read_model(nlohmann::json::parse(R"({"engine": "s4u"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.engine_for(2, "ring") == "s4u");
  CHECK(model.to_json().at("engine") == "s4u");
  model = read_model(nlohmann::json::parse(R"({"engine": "smpi"})"), "s.json", "/model", ModelSettings{});
  CHECK(model.engine_for(4096, "ring") == "smpi");

  CHECK(RINGSIM_ERROR_OF(read_model(nlohmann::json::parse(R"({"engine": "fast"})"), "s.json", "/model", ModelSettings{})) ==
        "s.json: /model/engine: unknown engine \"fast\"; expected one of auto, smpi, s4u");
}
