#include "../../sim/common/atomic_file.h"
#include "../../sim/common/json_input.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <limits>

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

TEST_CASE("integers are read only when they are JSON integers within the range asked for") {
  using nlohmann::json;
  CHECK(json_integer<int>(json::parse("2147483647")) == 2147483647);
  CHECK_FALSE(json_integer<int>(json::parse("2147483648")));
  CHECK(json_integer<int>(json::parse("-2147483648")) == -2147483647 - 1);
  CHECK_FALSE(json_integer<int>(json::parse("-2147483649")));
  CHECK(json_integer<std::uint64_t>(json::parse("18446744073709551615")) == 18446744073709551615ULL);
  CHECK_FALSE(json_integer<std::uint64_t>(json::parse("-1")));
  CHECK(json_integer<std::int64_t>(json::parse("-9223372036854775808")) == std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(json_integer<std::int64_t>(json::parse("9223372036854775808")));
  // Floats never, however whole or large (a cast of 6.5e37 to an integer is undefined behaviour).
  CHECK_FALSE(json_integer<std::uint64_t>(json::parse("6.5e37")));
  CHECK_FALSE(json_integer<int>(json::parse("4.0")));
  CHECK_FALSE(json_integer<int>(json::parse("\"4\"")));
  CHECK_FALSE(json_integer<int>(json::parse("true")));
  CHECK(json_integer<int>(json::parse("3"), 1, 3) == 3);
  CHECK_FALSE(json_integer<int>(json::parse("0"), 1, 3));
  CHECK_FALSE(json_integer<int>(json::parse("4"), 1, 3));
  CHECK_FALSE(json_integer<int>(json::parse("-1"), 0, 3));
}

TEST_CASE("an integer key out of range names the path, even one that wraps around as a signed integer") {
  const auto value = nlohmann::json::parse(R"({"count": 18446744073709551615})");
  JsonObjectReader reader(value, "t.json", "");
  // 2^64-1 read as a signed integer is -1: it must not pass for a range that holds -1.
  CHECK(RINGSIM_ERROR_OF(reader.optional_int("count", -1, 10)) ==
        "t.json: /count: expected an integer from -1 to 10, found 18446744073709551615");
}

TEST_CASE("a JSON value of the wrong type or out of range is one error naming the file and the path") {
  const auto document = nlohmann::json::parse(R"({"ts": 5.55556e+128, "pid": {"dtype": "float32"}, "name": 3,
                                                 "ok": [1, 2.5], "flag": "yes"})");
  JsonObjectReader reader(document, "t.json", "");
  // A float past every integer: no conversion (undefined behaviour), an error.
  CHECK(RINGSIM_ERROR_OF(reader.required("ts").integer<long long>()) ==
        "t.json: /ts: expected an integer from -9223372036854775808 to 9223372036854775807, found 5.55556e+128");
  CHECK(RINGSIM_ERROR_OF(reader.required_number("ts", 0, 1e15)) == "t.json: /ts: expected a number from 0 to 1e+15, found 5.55556e+128");
  CHECK(reader.required("ts").number() == 5.55556e+128);
  CHECK(RINGSIM_ERROR_OF(reader.required("pid").integer<int>(0, 100)) ==
        "t.json: /pid: expected an integer from 0 to 100, found an object");
  CHECK(RINGSIM_ERROR_OF(reader.required("pid").integer<int>(0, 100, "a process id")) ==
        "t.json: /pid: expected a process id (an integer from 0 to 100), found an object");
  CHECK(RINGSIM_ERROR_OF(reader.required("name").string()) == "t.json: /name: expected a string, found 3");
  CHECK(RINGSIM_ERROR_OF(reader.required_bool("flag")) == "t.json: /flag: expected true or false, found \"yes\"");
  CHECK(RINGSIM_ERROR_OF(reader.required("missing")) == "t.json: /missing: missing required key");
  const std::vector<JsonValue> elements = reader.required("ok").array();
  REQUIRE(elements.size() == 2);
  CHECK(elements[0].integer<int>() == 1);
  CHECK(elements[1].number(0, 3) == 2.5);
  CHECK(RINGSIM_ERROR_OF(elements[1].integer<int>()) == "t.json: /ok/1: expected an integer from -2147483648 to 2147483647, found 2.5");
  CHECK(RINGSIM_ERROR_OF(elements[1].object()) == "t.json: /ok/1: expected a JSON object, found 2.5");
  CHECK(RINGSIM_ERROR_OF(reader.required("name").array()) == "t.json: /name: expected an array, found 3");
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
