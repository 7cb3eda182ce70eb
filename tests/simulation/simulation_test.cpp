// Whole-program tests: `ringsim` runs real SMPI simulations and its numbers are checked against the
// closed form of the ring and against the mechanisms docs/tutorial.md explains.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../unit/temp_files.h"
#include "one_to_seventeen_ranks.h"
#include "ringsim_process.h"
#include "seed_rack.h"

#include <doctest/doctest.h>

using namespace ringsim::testing;

namespace {

const std::string kFlagship = RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json";

std::string scenario(const std::string& topology, const std::string& placements, const std::string& sizes,
                     const std::string& model, int iterations = 2) {
  return R"({"name": "test", "topology": ")" + topology + R"(", "placements": )" + placements +
         R"(, "sizes": )" + sizes + R"(, "iterations": )" + std::to_string(iterations) +
         R"(, "warmup": 1, "model": )" + model + "}";
}

constexpr const char* kIdealModel = R"({"network": "CM02", "crosstraffic": false, "factors": "none"})";

}  // namespace

TEST_CASE("ideal model: ring time is 2(N-1)(S/(N B) + L) within 1% for N = 8 and 12") {
  TempDir dir;
  auto file = dir.write("ideal.json", scenario(kSeedRack, R"(["4-2-2", "4-4-4"])", R"(["16MiB", "64MiB"])", kIdealModel));
  const auto run = run_ringsim("run " + file.string() + " --quiet --json " + (dir.path() / "r.json").string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "r.json");
  // seed rack: B = 10 Gbps NIC; L = NIC + switch + NIC latency between neighbours on different nodes.
  const double bandwidth = 10e9 / 8, latency = 3e-6;
  for (auto [placement, ranks] : {std::pair{"4-2-2", 8}, std::pair{"4-4-4", 12}})
    for (std::uint64_t bytes : {16u << 20, 64u << 20}) {
      const double predicted = 2.0 * (ranks - 1) * (static_cast<double>(bytes) / (ranks * bandwidth) + latency);
      const double simulated = row_of(results, placement, "block", bytes).at("time_s").get<double>();
      const std::string placement_text = placement;  // clang 14 cannot capture a structured binding
      CAPTURE(placement_text);
      CAPTURE(bytes);
      CHECK(simulated == doctest::Approx(predicted).epsilon(0.01));
    }
}

TEST_CASE("default model: block 4-2-2 and 4-3-1 agree within 2% and cyclic 4-3-1 is at least 1.3x cyclic 4-2-2") {
  TempDir dir;
  const auto run = run_ringsim("run " + kFlagship + " --quiet --json " + (dir.path() / "r.json").string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "r.json");
  for (std::uint64_t bytes : {1u << 20, 16u << 20, 64u << 20, 256u << 20}) {
    CAPTURE(bytes);
    const double even = row_of(results, "4-2-2", "block", bytes).at("time_s").get<double>();
    const double uneven = row_of(results, "4-3-1", "block", bytes).at("time_s").get<double>();
    CHECK(uneven == doctest::Approx(even).epsilon(0.02));
  }
  const std::uint64_t bytes = 64u << 20;
  const double cyclic_even = row_of(results, "4-2-2", "cyclic", bytes).at("time_s").get<double>();
  const double cyclic_uneven = row_of(results, "4-3-1", "cyclic", bytes).at("time_s").get<double>();
  // node0's NIC carries 2 ring edges upward in cyclic 4-2-2 and 3 in cyclic 4-3-1: expect about 3/2.
  CHECK(cyclic_uneven / cyclic_even >= 1.3);
  CHECK(cyclic_uneven / cyclic_even == doctest::Approx(1.5).epsilon(0.05));
  // The table a person reads says the same as the JSON.
  CHECK(run.out.find("# 4-3-1 cyclic ring: 8 ranks (ring visits nodes 0,1,2,0,1,0,1,0)") != std::string::npos);
}

TEST_CASE("the same scenario twice gives byte-identical results whatever --jobs") {
  TempDir dir;
  auto file = dir.write("d.json", scenario(kSeedRack, R"(["4-2-2", {"ranks": "4-3-1", "order": "cyclic"}, "2-2"])",
                                           R"(["1MiB", "16MiB"])", "{}", 3));
  for (const char* jobs : {"1", "2"}) {
    const auto run = run_ringsim("run " + file.string() + " --quiet --jobs " + jobs + " --json " +
                                     (dir.path() / (std::string("r") + jobs + ".json")).string(),
                                 dir.path());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  }
  const std::string first = read_text(dir.path() / "r1.json");
  CHECK(first.size() > 100);
  CHECK(first == read_text(dir.path() / "r2.json"));
}

TEST_CASE("the ring sums exactly for N = 1..17 with sizes not divisible by N in block and cyclic order") {
  TempDir dir;
  auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string placements = kOneToSeventeenRanks;
  // 1 float (fewer elements than ranks), 250, 1025 and 65537 floats.
  auto file = dir.write("c.json", scenario(topology.string(), placements, R"([4, 1000, 4100, 262148])", "{}", 1));
  const auto run = run_ringsim("run " + file.string() + " --quiet --json " + (dir.path() / "r.json").string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "r.json");
  REQUIRE(results.at("results").size() == 17 * 4);
  int ranks_seen = 0;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.at("wrong").is_number());
    CHECK(row.at("wrong").get<long long>() == 0);
    ranks_seen |= 1 << row.at("ranks").get<int>();
  }
  CHECK(ranks_seen == ((1 << 18) - 2));  // every N from 1 to 17
}

TEST_CASE("a hand-written SimGrid XML topology gives the same times as the compact topology it describes") {
  TempDir dir;
  const auto platform = run_ringsim("platform " + kSeedRack + " -o " + (dir.path() / "seed.xml").string(), dir.path());
  REQUIRE_MESSAGE(platform.exit_code == 0, platform.err);
  const std::string placements = R"(["4-3-1", {"ranks": "4-2-2", "order": "cyclic"}])";
  auto from_json = dir.write("j.json", scenario(kSeedRack, placements, R"(["16MiB"])", "{}"));
  auto from_xml = dir.write("x.json", scenario((dir.path() / "seed.xml").string(), placements, R"(["16MiB"])", "{}"));
  for (const auto& [file, out] : {std::pair{from_json, "j.out"}, std::pair{from_xml, "x.out"}}) {
    const auto run = run_ringsim("run " + file.string() + " --quiet --json " + (dir.path() / out).string(), dir.path());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  }
  auto a = read_json(dir.path() / "j.out");
  const auto b = read_json(dir.path() / "x.out");
  // Only a compact topology gives the alpha-beta-gamma view (algorithm_costs.h); the rest is the same.
  for (auto& row : a.at("results")) {
    CHECK(row.contains("cost_model"));
    row.erase("cost_model");
    row.erase("closed_form_s");
  }
  CHECK(a.at("results") == b.at("results"));
  CHECK(row_of(b, "4-2-2", "cyclic", 16u << 20).at("time_s").get<double>() >
        1.9 * row_of(b, "4-3-1", "block", 16u << 20).at("time_s").get<double>());
}

TEST_CASE("bad input gives one line naming file and path with exit status 2 and no results file") {
  TempDir dir;
  const auto json_out = dir.path() / "never.json";
  auto expect_bad = [&](const std::string& args, const std::string& message_part) {
    const auto run = run_ringsim(args + " --json " + json_out.string(), dir.path());
    CAPTURE(args);
    CAPTURE(run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message_part) != std::string::npos);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    CHECK(run.out.empty());
    CHECK_FALSE(std::filesystem::exists(json_out));
  };
  expect_bad("run " + (dir.path() / "missing.json").string(), "missing.json: cannot read file (does it exist?)");
  auto malformed = dir.write("m.json", "{\"topology\": \"x.json\",\n \"placements\": [\"4-2-2\",]\n}");
  expect_bad("run " + malformed.string(), malformed.string() + ":2:");
  auto too_many = dir.write("t.json", scenario(kSeedRack, R"(["4-2-2", "5-3"])", R"(["1MiB"])", "{}"));
  expect_bad("run " + too_many.string(), too_many.string() +
                 ": /placements/1: placement 5-3 puts 5 ranks on node 0 (node0), which has 4 rank slots");
  auto bad_unit = dir.write("u.json", scenario(kSeedRack, R"(["4-2-2"])", R"(["16MB/s"])", "{}"));
  expect_bad("run " + bad_unit.string(), bad_unit.string() + ": /sizes/0: expected a byte count");
  auto no_topology = dir.write("n.json", scenario((dir.path() / "nope.xml").string(), R"(["1"])", R"(["4"])", "{}"));
  expect_bad("run " + no_topology.string(), "nope.xml: cannot read file");
  auto broken_xml = dir.write("broken.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n");
  auto with_broken = dir.write("b.json", scenario(broken_xml.string(), R"(["1"])", R"(["4"])", "{}"));
  expect_bad("run " + with_broken.string(), "broken.xml:2: not a valid SimGrid platform");
  expect_bad("run " + kFlagship + " --jobs zero", "option --jobs takes a positive integer");
  expect_bad("run " + kFlagship + " --frobnicate", "ringsim run: unknown option --frobnicate (see ringsim run --help)");
}

TEST_CASE("the same rank program built against Open MPI computes the same sums") {
  if (std::string(RINGSIM_RANK_MPI).empty()) {
    MESSAGE("built without Open MPI (-DRINGSIM_WITH_OPENMPI=OFF): nothing to run");
    return;
  }
  // The Open MPI twin was built, so mpirun must be there (tools/bootstrap.sh installs openmpi-bin): a
  // missing one is a broken set-up, not a pass.
  REQUIRE_MESSAGE(std::system("command -v mpirun >/dev/null 2>&1") == 0, "the Open MPI rank program is built but mpirun is missing");
  TempDir dir;
  const auto report = dir.path() / "report.json";
  // Loopback only: shared memory between local ranks.
  const auto run = run_shell(std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                                         "mpirun --oversubscribe --mca btl self,vader -np 5 ") +
                                 RINGSIM_RANK_MPI + " --sizes 4,4100,1048576 --iterations 2 --warmup 1 --out " +
                                 report.string(),
                             dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto json = read_json(report);
  CHECK(json.at("smpi") == false);
  CHECK(json.at("ranks") == 5);
  REQUIRE(json.at("sizes").size() == 3);
  for (const auto& size : json.at("sizes")) {
    CHECK(size.at("wrong") == 0);
    CHECK(size.at("times_s").size() == 2);
    CHECK(size.at("times_s")[0].get<double>() > 0);
  }
}

TEST_CASE("a shared process stack as fast as the NIC makes block 4-3-1 at least 1.8x slower and one twice as fast does not") {
  TempDir dir;
  const std::string scenario = RINGSIM_SOURCE_DIR "/scenarios/locality-process-stack.json";
  auto ratio_at_64MiB = [&](const std::string& extra, const std::string& out) {
    const auto run = run_ringsim("run " + scenario + " --quiet --json " + (dir.path() / out).string() + extra, dir.path());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto results = read_json(dir.path() / out);
    return row_of(results, "4-3-1", "block", 64u << 20).at("time_s").get<double>() /
           row_of(results, "4-2-2", "block", 64u << 20).at("time_s").get<double>();
  };
  // The lone rank on node2 sends and receives across nodes through its one stack: half the rate each.
  CHECK(ratio_at_64MiB("", "stack1.json") >= 1.8);
  auto faster = dir.write("stack2.json", R"({"process_stack": {"nic_ratio": 2, "sharing": "shared"}})");
  CHECK(ratio_at_64MiB(" --model " + faster.string(), "stack2.json.out") == doctest::Approx(1.0).epsilon(0.03));
  // Split (full duplex) stacks at the NIC's rate: send and receive no longer compete.
  auto split = dir.write("split.json", R"({"process_stack": {"nic_ratio": 1, "sharing": "split"}})");
  CHECK(ratio_at_64MiB(" --model " + split.string(), "split.json.out") == doctest::Approx(1.0).epsilon(0.03));
}

TEST_CASE("a bad model in a scenario's second variant stops the run before any case simulates") {
  // A stand-in smpirun that records each call: the run must exit 2 without ever starting it.
  TempDir dir;
  const auto smpirun = dir.write("smpirun", "#!/bin/sh\necho \"$*\" >>" + (dir.path() / "smpirun-calls.txt").string() +
                                                "\nexec smpirun \"$@\"\n");
  std::filesystem::permissions(smpirun, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  const std::string scenario = RINGSIM_SOURCE_DIR "/tests/cli/bad-variant-scenario.json";
  const auto out = dir.path() / "cases";
  const auto run = run_shell("env RINGSIM_SMPIRUN=" + smpirun.string() + " " RINGSIM_BINARY " run " + scenario +
                                 " --quiet --jobs 1 --out " + out.string() + " --json " + (dir.path() / "never.json").string(),
                             dir.path());
  CAPTURE(run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.err.find(scenario + ": variant \"loaded\": model: background load on \"host9-nic\"") != std::string::npos);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.out.empty());
  CHECK_FALSE(std::filesystem::exists(dir.path() / "smpirun-calls.txt"));  // no case started
  CHECK_FALSE(std::filesystem::exists(out.string() + ".1-plain"));          // not even the first variant's directory
  CHECK_FALSE(std::filesystem::exists(dir.path() / "never.json"));
}
