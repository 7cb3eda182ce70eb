#include "../../sim/common/atomic_file.h"
#include "../../sim/common/json_input.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;
using ringsim::testing::TempDir;

TEST_CASE("malformed JSON is reported with file line and column") {
  TempDir dir;
  auto file = dir.write("broken.json", "{\n  \"name\": \"x\",\n  \"racks\": [ }\n");
  const std::string error = RINGSIM_ERROR_OF(load_json_file(file));
  CHECK(error.find(file.string() + ":3:") == 0);
  CHECK(error.find("malformed JSON") != std::string::npos);
  CHECK(RINGSIM_ERROR_OF(load_json_file(dir.path() / "missing.json")).find("cannot read file") != std::string::npos);
}

TEST_CASE("unknown keys are rejected with the closest known key") {
  const auto value = nlohmann::json::parse(R"({"bandwidth": "10Gbps", "latencyy": "1us"})");
  JsonObjectReader reader(value, "topo.json", "/racks/0/switch");
  CHECK(reader.optional_bandwidth("bandwidth") == doctest::Approx(1.25e9));
  CHECK_FALSE(reader.optional_latency("latency"));
  CHECK(RINGSIM_ERROR_OF(reader.finish()) ==
        "topo.json: /racks/0/switch/latencyy: unknown key; did you mean \"latency\"?");
}

TEST_CASE("a value in the wrong unit names the path and the expected form") {
  const auto value = nlohmann::json::parse(R"({"bandwidth": "10Gbs"})");
  JsonObjectReader reader(value, "topo.json", "/nic");
  CHECK(RINGSIM_ERROR_OF(reader.optional_bandwidth("bandwidth")) ==
        "topo.json: /nic/bandwidth: expected a bandwidth such as 10Gbps, 1.25GBps or 100Mbps, found \"10Gbs\"");
}

TEST_CASE("atomic writes leave the old file or the whole new one and never a part") {
  TempDir dir;
  auto file = dir.path() / "out.json";
  write_file_atomically(file, "first\n");
  write_file_atomically(file, "second\n");
  std::ifstream in(file);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  CHECK(content == "second\n");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);  // no temp file left
  CHECK_THROWS(write_file_atomically(dir.path() / "no-such-dir" / "out.json", "x"));
}
