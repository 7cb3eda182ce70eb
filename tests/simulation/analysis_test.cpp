// ringsim analyze against the simulation: for every shipped topology, the closed form of the ring's
// embedding must give the ideal-model SMPI time, and --order optimized must recover block order.
#include "../unit/temp_files.h"
#include "ringsim_process.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>

using namespace ringsim::testing;

namespace {

constexpr const char* kIdealModelFields = R"({"network": "CM02", "crosstraffic": false, "factors": "none")";

// Rank slots per node, in topology order, read from the compact topology file.
std::vector<int> slots_per_node(const std::filesystem::path& topology) {
  std::vector<int> slots;
  const nlohmann::json document = read_json(topology);
  for (const auto& rack : document.at("racks"))
    for (const auto& group : rack.at("nodes"))
      for (int i = 0; i < group.value("count", 1); ++i) slots.push_back(group.value("gpus", 1));
  return slots;
}

std::string join(const std::vector<int>& counts) {
  std::string text;
  for (int c : counts) text += (text.empty() ? "" : "-") + std::to_string(c);
  return text;
}

// The placements the acceptance asks for that fit: 4-2-2 and 4-3-1, and every slot filled (the
// largest placement the topology has; at least 32 ranks where it has 32 slots).
std::vector<std::string> placements_for(const std::vector<int>& slots) {
  std::vector<std::string> placements;
  if (slots.size() >= 3 && slots[0] >= 4 && slots[1] >= 3 && slots[2] >= 2) placements = {"4-2-2", "4-3-1"};
  placements.push_back(join(slots));
  return placements;
}

struct Case {
  std::string placement, order;
};

// Simulates CASES of TOPOLOGY under the ideal model plus MODEL_EXTRA, analyzes each, and checks they
// agree within 2% at 64 MiB. Returns the analyses.
std::vector<nlohmann::json> check_closed_form(const std::filesystem::path& topology, const std::vector<Case>& cases,
                                              const std::string& model_extra, TempDir& dir, const std::string& tag) {
  const std::string model = std::string(kIdealModelFields) + model_extra + "}";
  std::string placements;
  for (const Case& c : cases)
    placements += (placements.empty() ? "" : ", ") + (R"({"ranks": ")" + c.placement + R"(", "order": ")" + c.order + R"("})");
  const auto scenario = dir.write(tag + "-scenario.json", times_only(R"({"topology": ")" + topology.string() + R"(", "placements": [)" +
                                                                          placements + R"(], "sizes": ["64MiB"], "iterations": 1, "warmup": 0, "model": )" +
                                                                          model + "}"));
  const auto model_file = dir.write(tag + "-model.json", model);
  const auto results_file = dir.path() / (tag + "-results.json");
  const auto simulated = run_ringsim("run " + scenario.string() + " --quiet --jobs 2 --json " + results_file.string(), dir.path());
  REQUIRE_MESSAGE(simulated.exit_code == 0, simulated.err);
  const auto results = read_json(results_file);
  std::vector<nlohmann::json> analyses;
  for (const Case& c : cases) {
    CAPTURE(topology.stem().string());
    CAPTURE(c.placement);
    CAPTURE(c.order);
    CAPTURE(model_extra);
    const auto analysis_file = dir.path() / (tag + "-analysis.json");
    const auto analyzed = run_ringsim("analyze " + topology.string() + " --placement " + c.placement + " --order " + c.order +
                                          " --model " + model_file.string() + " --json " + analysis_file.string(),
                                      dir.path());
    REQUIRE_MESSAGE(analyzed.exit_code == 0, analyzed.err);
    analyses.push_back(read_json(analysis_file));
    const double predicted = analyses.back().at("predicted")[0].at("time_s").get<double>();
    const double time = row_of(results, c.placement, c.order, 64u << 20).at("time_s").get<double>();
    CHECK(time == doctest::Approx(predicted).epsilon(0.02));
  }
  return analyses;
}

std::vector<std::filesystem::path> shipped_topologies() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(RINGSIM_SOURCE_DIR "/topologies"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("analyze's closed form agrees with the ideal-model simulation within 2 percent at 64 MiB on every shipped topology") {
  TempDir dir;
  const auto topologies = shipped_topologies();
  REQUIRE(topologies.size() >= 5);
  int largest_checked = 0;
  for (const auto& topology : topologies) {
    std::vector<Case> cases;
    for (const auto& placement : placements_for(slots_per_node(topology)))
      for (const char* order : {"block", "cyclic"}) cases.push_back({placement, order});
    check_closed_form(topology, cases, "", dir, topology.stem().string());
    const auto slots = slots_per_node(topology);
    largest_checked = std::max(largest_checked, std::accumulate(slots.begin(), slots.end(), 0));
  }
  CHECK(largest_checked >= 32);
}

TEST_CASE("analyze names the bottleneck each model mechanism creates and still predicts the simulation") {
  TempDir dir;
  const std::filesystem::path seed = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";
  SUBCASE("cyclic order: the busiest NIC direction") {
    const auto a = check_closed_form(seed, {{"4-3-1", "cyclic"}}, "", dir, "cyclic");
    CHECK(a[0].at("bottleneck").at("link") == "node0-nic");
    CHECK(a[0].at("bottleneck").at("ring_edges") == 3);
  }
  SUBCASE("a shared process stack: the lone rank's stack") {
    const auto a = check_closed_form(seed, {{"4-3-1", "block"}}, R"(, "process_stack": {"nic_ratio": 1, "sharing": "shared"})", dir, "stack");
    CHECK(a[0].at("bottleneck").at("link") == "node2-gpu0-stack");
  }
  SUBCASE("half-duplex NICs: send and receive share every NIC") {
    const auto a = check_closed_form(seed, {{"4-2-2", "block"}}, R"(, "nic_sharing": "half-duplex")", dir, "half");
    CHECK(a[0].at("bottleneck").at("direction") == "shared");
    CHECK(a[0].at("bottleneck").at("ring_edges") == 2);
  }
  SUBCASE("background traffic on one NIC direction") {
    const auto a = check_closed_form(seed, {{"4-2-2", "block"}},
                                     R"(, "background": [{"link": "node1-nic", "direction": "up", "fraction": 0.5}])", dir, "background");
    CHECK(a[0].at("bottleneck").at("link") == "node1-nic");
    CHECK(a[0].at("bottleneck").at("direction") == "up");
  }
  SUBCASE("an oversubscribed spine: ring edges between racks share each rack's uplink") {
    const std::filesystem::path racks = RINGSIM_SOURCE_DIR "/topologies/two-racks-4to1.json";
    // Cyclic over 8 nodes: each of the 4 rounds crosses from rack 0 to rack 1 once, so the uplink (a
    // quarter of 4 NICs) carries 4 ring edges, as much as each NIC.
    const auto a = check_closed_form(racks, {{"4-4-4-4-4-4-4-4", "cyclic"}}, "", dir, "spine");
    int uplink_edges = 0;
    for (const auto& link : a[0].at("links"))
      if (link.at("link") == "rack0-uplink" && link.at("direction") == "up") uplink_edges = link.at("ring_edges");
    CHECK(uplink_edges == 4);
    CHECK(a[0].at("bottleneck").at("ring_edges") == 4);
  }
}

TEST_CASE("--order optimized on cyclic placements recovers the block-order time within 2 percent") {
  TempDir dir;
  struct Check {
    std::string topology, placement;
  };
  for (const Check& c : std::vector<Check>{{"seed-rack", "4-2-2"}, {"seed-rack", "4-3-1"},
                                           {"cluster-8x4-10GbE", "4-4-4-4-4-4-4-4"}, {"two-racks-4to1", "4-4-4-4-4-4-4-4"},
                                           {"dgx-a100-pair", "8-8"}}) {
    CAPTURE(c.topology);
    CAPTURE(c.placement);
    const std::string topology = std::string(RINGSIM_SOURCE_DIR "/topologies/") + c.topology + ".json";
    const auto out = dir.path() / (c.topology + c.placement + ".json");
    const auto run = run_ringsim("analyze " + topology + " --placement " + c.placement + " --order optimized --json " + out.string(),
                                 dir.path());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto optimized = read_json(out).at("optimized");
    CHECK(optimized.at("time_s").get<double>() == doctest::Approx(optimized.at("block_time_s").get<double>()).epsilon(0.02));
    if (c.placement != "8-8") CHECK(optimized.at("cyclic_time_s").get<double>() > 1.5 * optimized.at("time_s").get<double>());
  }
}

TEST_CASE("the flagship scenario names per-process serialization as what makes block 4-3-1 slower and NIC sharing for cyclic order") {
  TempDir dir;
  // The shipped scenario at one size (its variants and placements unchanged).
  nlohmann::json flagship = read_json(RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json");
  flagship["sizes"] = {"64MiB"};
  flagship["iterations"] = 1;
  flagship["topology"] = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";
  const auto scenario = dir.write("flagship.json", flagship.dump());
  const auto run = run_ringsim("run " + scenario.string() + " --quiet --json " + (dir.path() / "r.json").string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "r.json");
  auto time = [&](const std::string& variant, const std::string& placement, const std::string& order) {
    for (const auto& row : results.at("results"))
      if (row.at("variant") == variant && row.at("placement") == placement && row.at("order") == order) return row.at("time_s").get<double>();
    FAIL("no row " << variant << " " << placement << " " << order);
    return 0.0;
  };
  CHECK(time("process-stack", "4-3-1", "block") / time("process-stack", "4-2-2", "block") >= 1.8);
  CHECK(time("plain", "4-3-1", "block") / time("plain", "4-2-2", "block") == doctest::Approx(1.0).epsilon(0.02));
  const std::string findings = results.at("findings").dump();
  CHECK(findings.find("Answer, 4-3-1 block against 4-2-2 block: slower under process-stack (2.00x), not under plain (1.00x); "
                      "the mechanism is per-process send/receive serialization: the network stack of rank 7 (node2-gpu0)") !=
        std::string::npos);
  CHECK(findings.find("Answer, 4-2-2 cyclic against 4-2-2 block: slower under plain (2.00x), process-stack (2.00x); "
                      "the mechanism is NIC sharing: NIC node0-nic") != std::string::npos);
  CHECK(run.out.find("# Findings") != std::string::npos);
}

TEST_CASE("the network-upgrade what-if: each tenfold NIC upgrade shortens the 250 MB allreduce about tenfold") {
  TempDir dir;
  const auto run = run_ringsim("run " RINGSIM_SOURCE_DIR "/scenarios/network-upgrade-what-if.json --quiet --json " +
                                   (dir.path() / "r.json").string(),
                               dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  std::map<std::string, double> time;
  const nlohmann::json results = read_json(dir.path() / "r.json");
  for (const auto& row : results.at("results")) time[row.at("variant")] = row.at("time_s");
  REQUIRE(time.size() == 3);
  // 3 ranks: each moves 2(N-1)/N x 250 MB = 333 MB through its NIC; SMPI's default factors add ~12%.
  const double bound_1G = 4.0 / 3.0 * 250e6 / (1e9 / 8);
  CHECK(time["1 Gbit/s NICs"] >= bound_1G);
  CHECK(time["1 Gbit/s NICs"] <= 1.15 * bound_1G);
  CHECK(time["100 Mbit/s NICs"] / time["1 Gbit/s NICs"] == doctest::Approx(10).epsilon(0.05));
  CHECK(time["1 Gbit/s NICs"] / time["10 Gbit/s NICs"] == doctest::Approx(10).epsilon(0.05));
  CHECK(run.out.find("# What-if") != std::string::npos);
}

TEST_CASE("analyze reads SimGrid XML on SimGrid's own routes and agrees with the compact topology it came from") {
  TempDir dir;
  for (const std::string name : {"two-racks-4to1", "dgx-a100-pair", "seed-rack"}) {
    CAPTURE(name);
    const std::string topology = std::string(RINGSIM_SOURCE_DIR "/topologies/") + name + ".json";
    const auto xml = dir.path() / (name + ".xml");
    REQUIRE(run_ringsim("platform " + topology + " -o " + xml.string(), dir.path()).exit_code == 0);
    const std::string placement = name == "seed-rack" ? "4-3-1" : name == "dgx-a100-pair" ? "8-8" : "4-4-4-4-4-4-4-4";
    std::vector<nlohmann::json> analyses;
    for (const auto& source : {std::filesystem::path(topology), xml}) {
      const auto out = dir.path() / (name + source.extension().string() + ".analysis");
      const auto run = run_ringsim("analyze " + source.string() + " --placement " + placement + " --order cyclic --json " + out.string(),
                                   dir.path());
      REQUIRE_MESSAGE(run.exit_code == 0, run.err);
      analyses.push_back(read_json(out));
    }
    CHECK(analyses[1].at("predicted")[0].at("time_s").get<double>() ==
          doctest::Approx(analyses[0].at("predicted")[0].at("time_s").get<double>()).epsilon(1e-9));
    CHECK(analyses[1].at("bottleneck") == analyses[0].at("bottleneck"));
  }
}

TEST_CASE("a scenario placement in optimized order simulates as fast as block order and the search's order is what runs") {
  TempDir dir;
  // The two-rack cluster's 32 slots dealt cyclically put 4 ring edges on every NIC and uplink direction.
  const auto scenario = dir.write("optimized.json", R"({"topology": ")" RINGSIM_SOURCE_DIR R"(/topologies/two-racks-4to1.json",
      "placements": ["4-4-4-4-4-4-4-4", {"ranks": "4-4-4-4-4-4-4-4", "order": "cyclic"},
                     {"ranks": "4-4-4-4-4-4-4-4", "order": "optimized"}],
      "sizes": ["64MiB"], "iterations": 1, "warmup": 0})");
  const auto run = run_ringsim("run " + scenario.string() + " --quiet --jobs 2 --json " + (dir.path() / "r.json").string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "r.json");
  const double block = row_of(results, "4-4-4-4-4-4-4-4", "block", 64u << 20).at("time_s");
  const double cyclic = row_of(results, "4-4-4-4-4-4-4-4", "cyclic", 64u << 20).at("time_s");
  const double optimized = row_of(results, "4-4-4-4-4-4-4-4", "optimized", 64u << 20).at("time_s");
  CHECK(optimized == doctest::Approx(block).epsilon(0.02));
  CHECK(cyclic > 3 * optimized);
  CHECK(run.out.find("# 4-4-4-4-4-4-4-4 optimized ring: 32 ranks (ring visits nodes ") != std::string::npos);
}

TEST_CASE("analyze with a model key nccl adds NCCL's own prediction of its ring and leaves the output alone without it") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";
  const auto model = dir.write("nccl.json", R"({"nccl": {"version": "2.23"}})");
  const auto json = dir.path() / "a.json";
  const auto run = run_ringsim("analyze " + topology + " --placement 4-3-1 --order cyclic --sizes 4KiB,64MiB --model " +
                                   model.string() + " --json " + json.string(),
                               dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.out.find("# NCCL 2.23's own model of nccl_ring: 8 ranks on 3 nodes, 2 channels") != std::string::npos);
  const auto predicted = read_json(json).at("nccl_predicted");
  REQUIRE(predicted.size() == 2);
  // 4 KiB, LL: 6.6 + 10 intra-node hops x 1.0 + 4 network hops x 2.7 us, at 1.25 GB/s x 1/2 x 8/14.
  CHECK(predicted[0].at("protocol") == "LL");
  CHECK(predicted[0].at("latency_s").get<double>() == doctest::Approx(27.4e-6));
  CHECK(predicted[0].at("time_s").get<double>() == doctest::Approx(27.4e-6 + 4096 / (0.625e9 * 8 / 14)));
  // 64 MiB, Simple: (8.4 + 10 x 5.7 + 4 x 14) x 1.4 us, at 1.25 GB/s x 8/14.
  CHECK(predicted[1].at("protocol") == "Simple");
  CHECK(predicted[1].at("latency_s").get<double>() == doctest::Approx(169.96e-6));
  // The same order's MPI-ring prediction is 3x slower (3 ring edges on node0's NIC); NCCL's ignores the order.
  CHECK(read_json(json).at("predicted")[1].at("time_s").get<double>() > 2.9 * predicted[1].at("time_s").get<double>());
  const auto plain = run_ringsim("analyze " + topology + " --placement 4-3-1", dir.path());
  CHECK(plain.out.find("NCCL") == std::string::npos);
}
