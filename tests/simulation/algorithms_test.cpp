// Whole-program tests of the allreduce algorithms (sim/rank/algorithm_catalog.h): every one sums
// exactly for N = 1..17, the traffic counts are the textbook ones, and on the ideal model each
// simulated time is its closed form (sim/analysis/algorithm_costs.h).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/rank/algorithm_catalog.h"
#include "../unit/temp_files.h"
#include "one_to_seventeen_ranks.h"
#include "ringsim_process.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace ringsim::testing;

namespace {

constexpr const char* kIdealModel = R"({"network": "CM02", "crosstraffic": false, "factors": "none"})";
// NCCL's software costs off (nccl_software_costs.h): for tests of a mechanism of the transfers themselves.
constexpr const char* kNoSoftwareCosts = R"("software": {"call": "0us", "intra_step": "0us", "net_step": "0us", "per_gb": "0us"})";

// The catalog's algorithms that run on any placement (all but nccl_nvls and nccl_nvls_tree), with the MPI library's own or not.
std::string algorithm_list(bool with_library) {
  std::string list;
  for (const auto& info : ringsim::kAlgorithmCatalog)
    if ((with_library || info.name != "mpi") && info.placements == ringsim::AlgorithmInfo::Placements::any) list += (list.empty() ? "\"" : ", \"") + std::string(info.name) + "\"";
  return "[" + list + "]";
}

std::size_t multi_node_algorithms() {
  return static_cast<std::size_t>(std::count_if(ringsim::kAlgorithmCatalog.begin(), ringsim::kAlgorithmCatalog.end(),
                                                [](const auto& info) { return info.placements == ringsim::AlgorithmInfo::Placements::any; }));
}

std::string scenario(const std::string& topology, const std::string& placements, const std::string& algorithms,
                     const std::string& sizes, const std::string& model, int warmup) {
  return R"({"name": "algorithms", "topology": ")" + topology + R"(", "placements": )" + placements +
         R"(, "algorithms": )" + algorithms + R"(, "sizes": )" + sizes + R"(, "iterations": 1, "warmup": )" +
         std::to_string(warmup) + R"(, "model": )" + model + "}";
}

// Runs SCENARIO_TEXT with --jobs 2, results checked, and returns the results JSON.
nlohmann::json run_scenario(const TempDir& dir, const std::string& scenario_text, const std::string& extra = "") {
  const auto file = dir.write("scenario.json", scenario_text);
  const auto run = run_ringsim("run " + file.string() + " --quiet --jobs 2 --json " + (dir.path() / "r.json").string() +
                                   extra + " > " + (dir.path() / "table.txt").string(),
                               dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return read_json(dir.path() / "r.json");
}

// run_scenario for the tests of times and traffic: nothing holds values (times_only).
nlohmann::json run_times(const TempDir& dir, const std::string& scenario_text, const std::string& extra = "") {
  return run_scenario(dir, times_only(scenario_text), extra);
}

// Every one of the ROWS result rows has an exact sum (#wrong 0).
void check_exact_sums(const nlohmann::json& results, std::size_t rows) {
  REQUIRE(results.at("results").size() == rows);
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.at("wrong").is_number());
    CHECK(row.at("wrong").get<long long>() == 0);
  }
}

const nlohmann::json& row_for(const nlohmann::json& results, const std::string& algorithm, int ranks) {
  for (const auto& row : results.at("results"))
    if (row.at("algorithm") == algorithm && row.at("ranks") == ranks) return row;
  throw std::runtime_error("no result row for " + algorithm + " with " + std::to_string(ranks) + " ranks");
}

}  // namespace

TEST_CASE("every algorithm sums exactly for N = 1..17 with counts not divisible by N") {
  TempDir dir;
  auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string placements = kOneToSeventeenRanks;
  // 1 float (fewer elements than ranks), 17, 1009 and 65537 floats.
  const auto results = run_scenario(dir, scenario(topology.string(), placements, algorithm_list(true),
                                                  "[4, 68, 4036, 262148]", "{}", 1));
  REQUIRE(results.at("results").size() == 17 * 4 * multi_node_algorithms());
  std::set<std::pair<std::string, int>> seen;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.at("wrong").is_number());
    CHECK(row.at("wrong").get<long long>() == 0);
    seen.insert({row.at("algorithm").get<std::string>(), row.at("ranks").get<int>()});
  }
  CHECK(seen.size() == 17 * multi_node_algorithms());  // every algorithm at every N (nccl_nvls: below)
}

TEST_CASE("the ring's per-rank traffic stays 2(N-1)/N S while a single parameter server's is (N-1) S") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/cluster-8x4-10GbE.json";
  const std::string placements = R"(["2", "4", "4-4", "4-4-4-4", "4-4-4-4-4-4-4-4"])";
  const std::uint64_t bytes = 1u << 20;
  const auto results = run_times(
      dir, scenario(topology, placements, R"(["ring", "parameter_server", "mpi"])", "[1048576]", "{}", 0),
      " --out " + (dir.path() / "cases").string());
  for (int n : {2, 4, 8, 16, 32}) {
    CAPTURE(n);
    const auto& ring = row_for(results, "ring", n).at("traffic");
    const double per_rank = 2.0 * (n - 1) / n * bytes;
    CHECK(ring.at("max_rank_sent_bytes").get<double>() == doctest::Approx(per_rank).epsilon(0.01));
    CHECK(ring.at("max_rank_recv_bytes").get<double>() == doctest::Approx(per_rank).epsilon(0.01));
    CHECK(ring.at("total_bytes").get<double>() == doctest::Approx(n * per_rank).epsilon(0.01));
    CHECK(ring.at("steps") == 2 * (n - 1));
    const auto& server = row_for(results, "parameter_server", n).at("traffic");
    CHECK(server.at("max_rank_recv_bytes") == (n - 1) * bytes);
    CHECK(server.at("max_rank_sent_bytes") == (n - 1) * bytes);
    CHECK(server.at("total_bytes") == 2 * (n - 1) * bytes);  // the same total as the ring: only its spread differs
    CHECK(row_for(results, "mpi", n).at("traffic").is_null());
  }
  // The table shows the per-rank traffic in units of S once algorithms are compared.
  const std::string table = read_text(dir.path() / "table.txt");
  CHECK(table.find("sent/S  recv/S   msgs") != std::string::npos);
  CHECK(table.find("  31.000  31.000     31") != std::string::npos);  // the server with 32 ranks
  // Events name their phases, so a reader needs no rank header.
  bool found_events = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() / "cases"))
    if (entry.path().filename() == "events.jsonl") {
      std::ifstream in(entry.path());
      std::string line;
      std::getline(in, line);
      const auto names = nlohmann::json::parse(line).at("phase_names");
      CHECK(names[0] == "scatter_reduce");
      CHECK(names[7] == "push");
      found_events = true;
    }
  CHECK(found_events);
}

TEST_CASE("ideal model: every algorithm is within 3 percent of its closed form at 64 MiB for N = 8 and 16") {
  TempDir dir;
  // One rank per node behind a non-blocking switch, split-duplex 10 Gbps NICs: the formulas' case.
  auto topology = dir.write("sixteen.json", R"({"racks": [{"nodes": [{"name": "n", "count": 16, "gpus": 1}]}]})");
  const std::string placements = R"(["1-1-1-1-1-1-1-1", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1"])";
  const auto results = run_times(
      dir, scenario(topology.string(), placements, algorithm_list(false), R"(["64MiB"])", kIdealModel, 0));
  for (const auto& info : ringsim::kAlgorithmCatalog) {
    // NCCL's tree model carries NCCL's empirical efficiency and size corrections: its own test below.
    if (info.name == "mpi" || info.name == "nccl_tree" || info.name == "nccl" || info.placements != ringsim::AlgorithmInfo::Placements::any) continue;
    for (int n : {8, 16}) {
      const auto& row = row_for(results, std::string(info.name), n);
      CAPTURE(row.dump());
      REQUIRE(row.contains("closed_form_s"));
      CHECK(row.at("time_s").get<double>() == doctest::Approx(row.at("closed_form_s").get<double>()).epsilon(0.03));
      // alpha: NIC + switch + NIC latency; beta: the 10 Gbps NIC; gamma: 1 flop per 4 bytes at 1 Tf.
      CHECK(row.at("cost_model").at("alpha_s").get<double>() == doctest::Approx(3e-6));
      CHECK(row.at("cost_model").at("beta_s_per_byte").get<double>() == doctest::Approx(8 / 10e9));
      CHECK(row.at("cost_model").at("gamma_s_per_byte").get<double>() == doctest::Approx(0.25e-12));
    }
  }
  // What a student should see: a single server's link carries (N-1) S each way against the ring's
  // 2(N-1)/N S, so it takes about N/2 x 2 = N times as long.
  CHECK(row_for(results, "parameter_server", 16).at("time_s").get<double>() >
        0.9 * 16 * row_for(results, "ring", 16).at("time_s").get<double>());
}

TEST_CASE("ideal model: hierarchical on 4 nodes x 4 ranks is within 3 percent of its closed form at 64 MiB") {
  TempDir dir;
  auto topology = dir.write("quad.json", R"({"racks": [{"nodes": [{"name": "h", "count": 4, "gpus": 4}]}]})");
  const auto results = run_times(
      dir, scenario(topology.string(), R"(["4-4-4-4"])", R"(["hierarchical", "mpi"])", R"(["64MiB"])", kIdealModel, 0));
  const auto& row = row_for(results, "hierarchical", 16);
  CAPTURE(row.dump());
  REQUIRE(row.contains("closed_form_s"));
  CHECK(row.at("time_s").get<double>() == doctest::Approx(row.at("closed_form_s").get<double>()).epsilon(0.03));
  // Only node leaders cross the network, in a ring of 4: 2(4-1)/4 S = 1.5 S each way; a leader also
  // sends the sum to 2 ranks of its node (binomial broadcast) and receives 2 partial sums.
  CHECK(row.at("traffic").at("max_rank_sent_bytes") == 7 * (64u << 20) / 2);
  CHECK(row.at("traffic").at("max_rank_recv_bytes") == 7 * (64u << 20) / 2);
  CHECK_FALSE(row_for(results, "mpi", 16).contains("closed_form_s"));
}

TEST_CASE("nccl_ring sums exactly for N = 1..17 under each protocol with 3 channels and several loops") {
  TempDir dir;
  auto topology = dir.write("five.json", kFiveNodeTopology);
  // Simple with a 64 KiB NCCL_BUFFSIZE: 8 KiB chunks, so 1 MiB on few ranks takes several loops.
  std::string text = scenario(topology.string(), kOneToSeventeenRanks, R"(["nccl_ring"])", "[4, 68, 4036, 262148]", "{}", 1);
  text.pop_back();
  text += R"(, "variants": [{"name": "LL", "model": {"nccl": {"protocol": "LL"}}},
                            {"name": "LL128", "model": {"nccl": {"protocol": "LL128", "channels": 1}}},
                            {"name": "Simple", "model": {"nccl": {"protocol": "Simple", "channels": 3, "buffsize": "64KiB"}}}]})";
  const auto results = run_scenario(dir, text);
  check_exact_sums(results, 17 * 4 * 3);
}

TEST_CASE("nccl_ring's traffic: the ring's 2(N-1)/N S per rank in Simple twice that in LL (its flags)") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/cluster-8x4-10GbE.json";
  std::string text = scenario(topology, R"(["1-1-1-1-1-1-1-1"])", R"(["nccl_ring"])", "[1048576]", "{}", 0);
  text.pop_back();
  text += R"(, "variants": [{"name": "Simple", "model": {"nccl": {"protocol": "Simple"}}},
                            {"name": "LL", "model": {"nccl": {"protocol": "LL"}}}]})";
  const auto results = run_times(dir, text);
  const double per_rank = 2.0 * 7 / 8 * (1 << 20);
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const auto& traffic = row.at("traffic");
    const double flags = row.at("variant") == "LL" ? 2 : 1;
    CHECK(traffic.at("max_rank_sent_bytes").get<double>() == doctest::Approx(flags * per_rank));
    CHECK(traffic.at("max_rank_recv_bytes").get<double>() == doctest::Approx(flags * per_rank));
    CHECK(traffic.at("total_bytes").get<double>() == doctest::Approx(8 * flags * per_rank));
    // Simple: 2 channels x 14 transfers x 2 slices of 32 KiB; LL: 2 x 14 x 2 steps of 32 KiB of data.
    CHECK(traffic.at("steps") == 56);
  }
}

TEST_CASE("ideal model: nccl_ring is within 1 percent of NCCL's own time model at 64 MiB for N = 8 16 and 32") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/cluster-8x4-10GbE.json";
  const std::string placements = R"(["1-1-1-1-1-1-1-1", "2-2-2-2-2-2-2-2", "4-4-4-4-4-4-4-4"])";
  const auto results =
      run_times(dir, scenario(topology, placements, R"(["nccl_ring"])", R"(["64MiB"])", kIdealModel, 0));
  for (int n : {8, 16, 32}) {
    const auto& row = row_for(results, "nccl_ring", n);
    CAPTURE(row.dump());
    REQUIRE(row.contains("closed_form_s"));
    CHECK(row.at("time_s").get<double>() == doctest::Approx(row.at("closed_form_s").get<double>()).epsilon(0.01));
    CHECK(row.at("wrong").is_null());  // 64 MiB x 8 ranks and more: shared buffers, not checked
  }
  // The table shows NCCL's model beside the simulated time.
  CHECK(read_text(dir.path() / "table.txt").find("nccl model(us)") != std::string::npos);
}

TEST_CASE("flagship topology: nccl_ring takes as long in cyclic as in block order unlike the MPI ring") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";
  const std::string placements =
      R"(["4-2-2", "4-3-1", {"ranks": "4-2-2", "order": "cyclic"}, {"ranks": "4-3-1", "order": "cyclic"}])";
  // No model named: the MPI ring under SMPI's, nccl_ring under the model made for NCCL. NCCL orders its
  // ring by node whatever the rank order.
  const auto results =
      run_times(dir, scenario(topology, placements, R"(["nccl_ring", "ring"])", R"(["64MiB"])", "{}", 0));
  auto time_of = [&](const std::string& algorithm, const std::string& placement, const std::string& order) {
    for (const auto& row : results.at("results"))
      if (row.at("algorithm") == algorithm && row.at("placement") == placement && row.at("order") == order)
        return row.at("time_s").get<double>();
    throw std::runtime_error("no row " + algorithm + " " + placement + " " + order);
  };
  for (const std::string placement : {"4-2-2", "4-3-1"}) {
    CAPTURE(placement);
    CHECK(time_of("nccl_ring", placement, "cyclic") ==
          doctest::Approx(time_of("nccl_ring", placement, "block")).epsilon(0.01));
    // The MPI ring follows rank order: cyclic puts 2 (4-2-2) or 3 (4-3-1) ring edges on one NIC.
    CHECK(time_of("ring", placement, "cyclic") > 1.9 * time_of("ring", placement, "block"));
  }
}

TEST_CASE("a scenario running ring and nccl gives the NCCL cases the times of a scenario running nccl alone") {
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/seed-rack.json";
  const std::string placements = R"(["4-2-2", "4-3-1"])";
  TempDir mixed_dir, alone_dir, stated_dir;
  const auto mixed = run_times(mixed_dir, scenario(topology, placements, R"(["ring", "nccl"])", R"(["64KiB", "64MiB"])", "{}", 0));
  const auto alone = run_times(alone_dir, scenario(topology, placements, R"(["nccl"])", R"(["64KiB", "64MiB"])", "{}", 0));
  // Naming the network keeps one model for every case.
  const auto stated = run_times(
      stated_dir, scenario(topology, placements, R"(["ring", "nccl"])", R"(["64KiB", "64MiB"])", R"({"network": "SMPI"})", 0));
  std::size_t compared = 0;
  for (const auto& row : mixed.at("results")) {
    if (row.at("algorithm") != "nccl") continue;
    for (const auto& other : alone.at("results"))
      if (other.at("placement") == row.at("placement") && other.at("bytes") == row.at("bytes")) {
        const std::string what = row.at("placement").get<std::string>() + " " + row.at("bytes").dump();
        CAPTURE(what);
        CHECK(row.at("time_s").get<double>() == other.at("time_s").get<double>());
        CHECK(row.at("nccl_ran") == other.at("nccl_ran"));
        ++compared;
      }
  }
  CHECK(compared == 4);
  // The results and the table say which model NCCL's cases ran under.
  CHECK(mixed.at("model").at("network") == "SMPI");
  CHECK(mixed.at("nccl_model").at("network") == "NCCL");
  CHECK(alone.at("model").at("network") == "NCCL");
  CHECK_FALSE(alone.contains("nccl_model"));
  CHECK_FALSE(stated.contains("nccl_model"));
  const std::string table = read_text(mixed_dir.path() / "table.txt");
  const auto line = table.find("\n# NCCL's algorithms ran under the model made for NCCL: {");
  REQUIRE(line != std::string::npos);
  CHECK(table.substr(line, table.find('\n', line + 1) - line).find("\"network\":\"NCCL\"") != std::string::npos);
  // The findings answer the placement question for each algorithm and the algorithm question on each placement.
  std::vector<std::string> pairs;
  for (const auto& finding : mixed.at("findings")) {
    const std::string text = finding.get<std::string>();
    const auto takes = text.find(" takes "), of = text.find("x the time of "), at = text.find(" at 64MiB");
    if (takes != std::string::npos && of != std::string::npos && at != std::string::npos)
      pairs.push_back(text.substr(0, takes) + " / " + text.substr(of + 14, at - of - 14));
  }
  CHECK(pairs == std::vector<std::string>{"4-2-2 block nccl / 4-2-2 block", "4-3-1 block / 4-2-2 block",
                                          "4-3-1 block nccl / 4-3-1 block", "4-3-1 block nccl / 4-2-2 block nccl"});
  // Under SMPI's factors NCCL's 64 MiB on 4-2-2 takes another time (the last row of a placement: its largest size).
  auto largest = [](const nlohmann::json& results) {
    const nlohmann::json* last = nullptr;
    for (const auto& row : results.at("results"))
      if (row.at("algorithm") == "nccl" && row.at("placement") == "4-2-2") last = &row;
    REQUIRE(last != nullptr);
    return last->at("time_s").get<double>();
  };
  const double under_smpi = largest(stated);
  CHECK(std::abs(under_smpi / largest(alone) - 1) > 0.02);
}

namespace {

// NODES nodes of GPUS H100 SXM on NVSwitch (the model's 450 GB/s ports), NICS 400 Gb/s InfiniBand NICs
// each; AFFINITY: the node group's "nic_affinity" entry, or empty.
std::string rail_topology(int nodes, int gpus, int nics, const std::string& affinity) {
  return R"({"name": "rails", "racks": [{"name": "pod", "switch": {"latency": "0.5us"}, "nodes": [{"name": "node", "count": )" +
         std::to_string(nodes) + R"(, "gpus": )" + std::to_string(gpus) + R"(, "nics": )" + std::to_string(nics) +
         R"(, "gpu_model": "H100 SXM", "nic_transport": "ib", )" + (affinity.empty() ? "" : R"("nic_affinity": )" + affinity + ", ") +
         R"("nic": {"bandwidth": "400Gbps", "latency": "1us"}, "intra": {"kind": "nvlink"}}]}]})";
}

double busbw_of(const nlohmann::json& results, int ranks) {
  return row_for(results, "nccl_ring", ranks).at("busbw_GBps").get<double>();
}

}  // namespace

TEST_CASE("rails: a NIC per GPU gives busbw 1 : 2 : 4 : 8 at 1, 2, 4, 8 H100 per node, each NCCL's bus bandwidth") {
  TempDir dir;
  const auto topology = dir.write("rails.json", rail_topology(10, 8, 8, ""));
  const std::string placements = R"(["1x10", "2x10", "4x10", "8x10"])";
  const auto results = run_times(dir, scenario(topology.string(), placements, R"(["nccl_ring"])", R"(["1GiB"])",
                                               R"({"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"version": "2.29"}})", 0));
  const double one = busbw_of(results, 10);
  // k ranks beside k NICs of 50 GB/s. At 8 H100's 450 GB/s NVLink ports, each carrying 14 of 16
  // channels' hops (514 GB/s of busbw), leave the NICs to bind: 8 x 50. (A100's 300 GB/s ports bound at 343.)
  CHECK(one == doctest::Approx(50).epsilon(0.02));
  CHECK(busbw_of(results, 20) == doctest::Approx(100).epsilon(0.02));
  CHECK(busbw_of(results, 40) == doctest::Approx(200).epsilon(0.02));
  CHECK(busbw_of(results, 80) == doctest::Approx(400).epsilon(0.02));
  CHECK(busbw_of(results, 80) >= 7.8 * one);
}

TEST_CASE("rails: GPUs sharing NICs pairwise give half the busbw of one NIC per GPU at the same ranks per node") {
  TempDir dir;
  const auto own = dir.write("own.json", rail_topology(4, 4, 4, ""));
  const auto pairwise = dir.write("pairwise.json", rail_topology(4, 4, 2, "[0, 0, 1, 1]"));
  const std::string model = R"({"network": "CM02", "crosstraffic": false, "factors": "none"})";
  const auto a = run_times(dir, scenario(own.string(), R"(["4x4"])", R"(["nccl_ring"])", R"(["256MiB"])", model, 0));
  const auto b = run_times(dir, scenario(pairwise.string(), R"(["4x4"])", R"(["nccl_ring"])", R"(["256MiB"])", model, 0));
  CHECK(busbw_of(a, 16) == doctest::Approx(200).epsilon(0.02));
  CHECK(busbw_of(b, 16) == doctest::Approx(busbw_of(a, 16) / 2).epsilon(0.02));
}

TEST_CASE("rails: on a 4:1 rail spine NCCL's rings crossing rails run at the uplinks' bandwidth without PXN, at NVLink's with it") {
  // rails-4x8-400G, placement 8-8, 16 channels: channel c enters each node at GPU c and leaves it from
  // GPU c-1, beside NIC c-1, while the next node's entry is NIC c (nccl_rails.h). Without PXN (NCCL
  // 2.11, or "pxn": false) every hop between the nodes climbs rail c-1's leaf uplink: 4 of 16 channels
  // per uplink direction, each uplink 400 Gb/s (4:1 over four 400 Gb/s NICs): busbw 16/4 x 50 = 200
  // GB/s. With PXN GPU c-1 hands the data over NVLink to GPU c, which sends through NIC c: no hop
  // leaves its rail's leaf; every GPU's NVLink port then carries all 16 channels' hops each way, at
  // NVLink's payload under the model made for NCCL (450 x 20.6/25 = 370.8 GB/s), below the eight NICs'
  // InfiniBand payload (8 x 50 x 4096/4122 = 397.6 GB/s).
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/rails-4x8-400G.json";
  auto busbw = [&](const std::string& nccl) {
    const auto results = run_times(dir, scenario(topology, R"(["8-8"])", R"(["nccl_ring"])", R"(["512MiB"])",
                                                 R"({"network": "NCCL", "nccl": )" + nccl + "}", 0));
    return busbw_of(results, 16);
  };
  // NCCL's software costs off: the test is of the links' rates.
  const double pxn = busbw(R"({"version": "2.18", )" + std::string(kNoSoftwareCosts) + "}");
  const double disabled = busbw(R"({"version": "2.18", "pxn": false, )" + std::string(kNoSoftwareCosts) + "}");
  const double before_pxn = busbw(R"({"version": "2.11", )" + std::string(kNoSoftwareCosts) + "}");
  CHECK(std::abs(disabled / 200 - 1) < 0.03);
  CHECK(std::abs(pxn / 370.8 - 1) < 0.03);
  CHECK(std::abs(before_pxn / disabled - 1) < 0.01);
}

TEST_CASE("a NIC beside no GPU (AWS p3dn): NCCL's ring stages through host memory, at the GPUs' PCIe links where they bind") {
  // 2 nodes of 8 V100 on 150 GB/s NVLink ports, one 100 Gb/s InfiniBand NIC on the CPU's root complex
  // (nic_affinity null for every GPU), so no GPUDirect RDMA: each node's ring leaves from GPU 7 and
  // enters at GPU 0, its 2 channels each crossing GPU 7's PCIe link up and GPU 0's down once. With 8
  // GB/s links busbw is 8 x 2 / 2 = 8 GB/s; told "gdr": true the NIC binds at its payload, 12.5 x
  // 4096/4122 = 12.42 GB/s.
  TempDir dir;
  const auto node = [](const std::string& stated) {
    return R"({"name": "p3dn", "racks": [{"name": "pod", "switch": {"latency": "0.5us"}, "nodes": [{"name": "node", "count": 2,
        "gpus": 8, "gpu_model": "Tesla V100-SXM2-32GB", "nic_transport": "ib", "nic_affinity": [null, null, null, null, null, null, null, null], )" +
           stated + R"(, "nic": {"bandwidth": "100Gbps"}, "intra": {"kind": "nvlink"}}]}]})";
  };
  const auto staged = dir.write("staged.json", node(R"("host_pcie": {"bandwidth": "8GBps"})"));
  const auto direct = dir.write("direct.json", node(R"("gdr": true)"));
  const std::string model = R"({"network": "NCCL", "nccl": {"version": "2.29", "protocol": "Simple"}})";
  const auto a = run_times(dir, scenario(staged.string(), R"(["8-8"])", R"(["nccl_ring"])", R"(["1GiB"])", model, 0));
  const auto b = run_times(dir, scenario(direct.string(), R"(["8-8"])", R"(["nccl_ring"])", R"(["1GiB"])", model, 0));
  const nlohmann::json& row = row_for(a, "nccl_ring", 16);
  const double simulated = row.at("time_s").get<double>(), closed_form = row.at("closed_form_s").get<double>();
  CHECK(busbw_of(a, 16) == doctest::Approx(8).epsilon(0.03));
  CHECK(closed_form == doctest::Approx(simulated).epsilon(0.03));
  CHECK(busbw_of(b, 16) == doctest::Approx(12.5 * 4096 / 4122).epsilon(0.03));
}

TEST_CASE("rails: nccl_tree's channels leave a node through its NICs in turn, as its rings do") {
  // 4 nodes of 4 GPUs, tree channels only (Simple). The double binary tree over 4 nodes puts 4 flows
  // of half the buffer on the busiest nodes' network each way (children and parent over both trees),
  // 2S per direction: with one NIC of 50 GB/s busbw is 2 x 15/16 x 25 = 46.9 GB/s. NCCL's search starts
  // each channel's chain beside its own NIC, so four NICs carry it together, not the chain's first two GPUs'.
  TempDir dir;
  const auto four = dir.write("four.json", rail_topology(4, 4, 4, ""));
  const auto one = dir.write("one.json", rail_topology(4, 4, 1, ""));
  const std::string model = R"({"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"version": "2.29", "protocol": "Simple"}})";
  const auto a = run_times(dir, scenario(four.string(), R"(["4x4"])", R"(["nccl_tree"])", R"(["256MiB"])", model, 0));
  const auto b = run_times(dir, scenario(one.string(), R"(["4x4"])", R"(["nccl_tree"])", R"(["256MiB"])", model, 0));
  const double one_nic = row_for(b, "nccl_tree", 16).at("busbw_GBps").get<double>();
  CHECK(one_nic == doctest::Approx(46.875).epsilon(0.05));
  CHECK(row_for(a, "nccl_tree", 16).at("busbw_GBps").get<double>() >= 3.3 * one_nic);
}

TEST_CASE("a topology naming only its GPU model, NICs and NIC rate runs at that model's NVLink rate, named in the header and the JSON") {
  // 4 nodes of 8 H100 SXM: 18 NVLink links of 25 GB/s each way, 450 GB/s per GPU (A100's 300 was the
  // silent default before). One node under the model made for NCCL: each port carries 18 x 20.6 =
  // 370.8 GB/s, so the ring's busbw is 370.8 (with 300 GB/s: 12 links, 247).
  TempDir dir;
  const auto topology = dir.write("h100.json", R"({"name": "h100", "racks": [{"nodes": [{"name": "node", "count": 4, "gpus": 8,
      "gpu_model": "H100 SXM", "nics": 8, "nic": {"bandwidth": "400Gbps"}, "intra": {"kind": "nvlink"}}]}]})");
  const auto results = run_times(dir, scenario(topology.string(), R"(["8"])", R"(["nccl_ring"])", R"(["1GiB"])",
                                               R"({"nccl": {"version": "2.29", )" + std::string(kNoSoftwareCosts) + "}}", 0));
  CHECK(busbw_of(results, 8) == doctest::Approx(370.8).epsilon(0.02));
  const std::vector<std::string> assumed = results.at("assumed");
  CHECK(std::count(assumed.begin(), assumed.end(), "NVLink 450 GB/s per GPU (18 links): H100 SXM") == 1);
  CHECK(std::count(assumed.begin(), assumed.end(), "GPU speed 67 Tflop/s for NCCL's kernels: H100 SXM") == 1);
  CHECK(std::count(assumed.begin(), assumed.end(), "NIC latency 1 us: default") == 1);
  const std::string table = read_text(dir.path() / "table.txt");
  CHECK_MESSAGE(table.find("# Assumed (not stated by the topology): ") != std::string::npos, table);
  CHECK(table.find("NVLink 450 GB/s per GPU (18 links): H100 SXM") != std::string::npos);
}

TEST_CASE("one NVSwitch node under the model made for NCCL: busbw at NVLink's payload, 240 of A100's 300 GB/s") {
  // NCCL's search: 12 channels at 20 GB/s, run as 24 (nccl_intra_search.h); each port carries NCCL's
  // 20 GB/s per NVLink 3 link (12 links behind 300 GB/s). The corpus's DGX A100 run measures 235 at 8 GiB.
  // NCCL's software costs off: the test is of NVLink's rate.
  TempDir dir;
  const std::string text = R"({"name": "dgx", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/dgx-a100-pair.json", "placements": ["8"], "algorithms": ["nccl_ring"],
                              "sizes": ["1GiB"], "iterations": 1, "warmup": 0, "model": {"nccl": {)" + std::string(kNoSoftwareCosts) +
                           "}}}";
  const auto results = run_times(dir, text);
  REQUIRE(results.at("model").at("network") == "NCCL");
  CHECK(busbw_of(results, 8) == doctest::Approx(240).epsilon(0.02));
}

TEST_CASE("nccl_nvls sums exactly for N = 1..17 on one NVSwitch node, over several windows of chunks") {
  TempDir dir;
  auto topology = dir.write("one.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 17, "intra": {"kind": "nvlink"}}]}]})");
  std::string placements = "[";
  for (int n = 1; n <= 17; ++n) placements += (n > 1 ? ", \"" : "\"") + std::to_string(n) + "\"";
  placements += "]";
  // 262148 floats on 2 ranks (16 NVLS channels): NCCL's 16 KiB chunks, 32 steps of 2 x 16 KiB and a short
  // one, more than the 4 in flight.
  const auto results = run_scenario(dir, scenario(topology.string(), placements, R"(["nccl_nvls"])", "[4, 68, 4036, 262148]", "{}", 1));
  check_exact_sums(results, 17 * 4);
}

TEST_CASE("nccl_nvls on one H100 node: each port carries (1 + 1/N) S at NCCL's NVLS efficiency, NCCL 2.29's model within 2%") {
  // 8 H100 on NVSwitch: a port carries 18 x 20.6 = 370.8 GB/s under the model made for NCCL. NVLS puts
  // (1 + 1/8) S on it each way at 0.85 of it: algbw 370.8 x 0.85 x 8/9 = 280 GB/s, busbw 490. NCCL 2.29's
  // model: 8 channels at 40 GB/s (9 x 40 fits 370.8), busbw 8 x 40 x 0.85 x 7/8 x 2 = 476, plus 25 us.
  // The public suite of such a node measures 470 at 1 GiB, 482 at 16 GiB. The S4U engine agrees. NCCL's
  // software costs are off: the port's share is the question here.
  TempDir dir;
  const std::string text = R"({"name": "nvls", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/h100-10x8-rails.json", "placements": ["8"], "algorithms": ["nccl_nvls", "nccl_ring"],
                              "sizes": ["1GiB"], "iterations": 1, "warmup": 0,
                              "model": {"nccl": {"version": "2.29", "compute_capability": 90, )" + std::string(kNoSoftwareCosts) + R"(}},
                              "variants": [{"name": "maestro", "model": {"engine": "maestro"}},
                                           {"name": "s4u", "model": {"engine": "s4u"}}]})";
  const auto results = run_times(dir, text);
  std::map<std::string, double> busbw, model_s, time_s;
  for (const auto& row : results.at("results")) {
    const std::string key = row.at("variant").get<std::string>() + " " + row.at("algorithm").get<std::string>();
    busbw[key] = row.at("busbw_GBps").get<double>();
    time_s[key] = row.at("time_s").get<double>();
    model_s[key] = row.at("closed_form_s").get<double>();
  }
  CAPTURE(busbw["maestro nccl_nvls"]);
  CHECK(model_s["maestro nccl_nvls"] == doctest::Approx(25e-6 + (1u << 30) / (476e9 * 8 / 14)).epsilon(1e-3));
  CHECK(time_s["maestro nccl_nvls"] == doctest::Approx(model_s["maestro nccl_nvls"]).epsilon(0.02));
  CHECK(busbw["maestro nccl_nvls"] == doctest::Approx(370.8 * 0.85 * 8 / 9 * 14 / 8).epsilon(0.03));
  CHECK(busbw["maestro nccl_ring"] == doctest::Approx(370.8).epsilon(0.02));
  CHECK(time_s["s4u nccl_nvls"] == doctest::Approx(time_s["maestro nccl_nvls"]).epsilon(0.01));
}

TEST_CASE("nccl on one H100 node runs NVLS where NCCL's model picks it, and nccl_nvls refuses several nodes") {
  TempDir dir;
  const std::string text = R"({"name": "pick", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/h100-10x8-rails.json", "placements": ["8"], "algorithms": ["nccl"],
                              "sizes": ["64KiB", "64MiB"], "iterations": 1, "warmup": 0,
                              "model": {"nccl": {"version": "2.29"}}})";  // Hopper: the topology's gpu_model
  const auto results = run_times(dir, text);
  std::vector<std::string> ran;
  for (const auto& row : results.at("results")) ran.push_back(row.at("nccl_ran").get<std::string>());
  CHECK(ran == std::vector<std::string>{"Ring/LL", "NVLS/Simple"});
  const auto two = dir.write("two.json", R"({"name": "two", "topology": ")" RINGSIM_SOURCE_DIR
                                         R"(/topologies/h100-10x8-rails.json", "placements": ["4-4"], "algorithms": ["nccl_nvls"], "sizes": ["1MiB"]})");
  const auto refused = run_ringsim("run " + two.string(), dir.path());
  CHECK(refused.exit_code == 2);
  CHECK_MESSAGE(refused.err.find("nccl_nvls runs on one node, and placement 4-4 block spans 2 nodes") != std::string::npos, refused.err);
}

TEST_CASE("nccl_nvls_tree sums exactly on 1 to 5 nodes of 1 to 4 ranks, and refuses uneven placements") {
  TempDir dir;
  auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string placements = R"(["1-1", "2-2", "3-3", "2-2-2", "1-1-1-1-1", "4-4-4-4", "3-3-3-3-3", "4"])";
  // 262148 floats on 2 ranks per node (NCCL 2.18, 16 NVLS channels): 32 KiB chunks, steps of 2 shards of
  // 8 chunks (one per channel of a tree), two and a short third. 2359300 floats on 4 and 5 nodes of one or
  // two ranks (2.29): 64 KiB chunks, 19 or 10 steps, more than a tree's 8 in flight per hop.
  const auto results = run_scenario(dir, scenario(topology.string(), placements, R"(["nccl_nvls_tree"])", "[4, 68, 4036, 262148]", "{}", 1));
  check_exact_sums(results, 8 * 4);
  const auto many = run_scenario(dir, scenario(topology.string(), R"(["1-1-1-1", "2-2-2-2-2"])", R"(["nccl_nvls_tree"])", "[2359300]",
                                               R"({"nccl": {"version": "2.29"}})", 1));
  check_exact_sums(many, 2);
  const auto uneven = dir.write("uneven.json", scenario(topology.string(), R"(["4-3"])", R"(["nccl_nvls_tree"])", "[4]", "{}", 0));
  const auto refused = run_ringsim("run " + uneven.string(), dir.path());
  CHECK(refused.exit_code == 2);
  CHECK_MESSAGE(refused.err.find("nccl_nvls_tree needs as many ranks on every node, and placement 4-3 block has not") != std::string::npos,
                refused.err);
}

TEST_CASE("nccl_nvls_tree on two H100 nodes: NVLink's (1 + 1/N) S binds, NCCL's model within 10 percent, and nccl picks it") {
  // Two nodes of 8 H100, a 400 Gb/s NIC beside each GPU, NCCL 2.20: each head's NIC carries its shard
  // once each way (the two trees' roots and leaves swap), an eighth of S; NVLink carries (1 + 1/8) S at
  // 0.85 of 370.8 GB/s: algbw 280 GB/s, busbw 525 at most. NCCL 2.20's model: 5/6 x 8 x min(40, 48) =
  // 267 GB/s, 4078 us at 1 GiB. The public two-node p5 run (NCCL 2.20) measures busbw 488.
  TempDir dir;
  const std::string text = R"({"name": "p5", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/h100-10x8-rails.json", "placements": ["8-8"], "algorithms": ["nccl_nvls_tree", "nccl"],
                              "sizes": ["1GiB"], "iterations": 1, "warmup": 0, "model": {"nccl": {"version": "2.20"}},
                              "variants": [{"name": "maestro", "model": {"engine": "maestro"}},
                                           {"name": "s4u", "model": {"engine": "s4u"}}]})";
  const auto results = run_times(dir, text);
  std::map<std::string, double> time_s;
  for (const auto& row : results.at("results"))
    time_s[row.at("variant").get<std::string>() + " " + row.at("algorithm").get<std::string>()] = row.at("time_s").get<double>();
  CHECK(time_s["s4u nccl_nvls_tree"] == doctest::Approx(time_s["maestro nccl_nvls_tree"]).epsilon(0.01));
  const auto& tree = row_for(results, "nccl_nvls_tree", 16);
  CAPTURE(tree.dump());
  CHECK(tree.at("closed_form_s").get<double>() == doctest::Approx((23 + 2 * 14) * 1e-6 + (1u << 30) / (5.0 / 6 * 8 * 40e9)).epsilon(1e-3));
  CHECK(tree.at("time_s").get<double>() == doctest::Approx(tree.at("closed_form_s").get<double>()).epsilon(0.10));
  CHECK(tree.at("busbw_GBps").get<double>() < 370.8 * 0.85 * 8 / 9 * 30 / 16);
  CHECK(row_for(results, "nccl", 16).at("nccl_ran") == "NVLSTree/Simple");
}

TEST_CASE("nccl_nvls_tree over 3 and 10 nodes: each tree's steps credited per hop, the busiest NIC's bound within 6 percent, both engines") {
  // One GPU per node: the double binary tree alone. A node's NIC carries, per tree and per half of S,
  // its children's sums in and its parent's total in (and as much out). 3 nodes: two nodes are inner
  // in one tree and the root of the other, 3 halves each way, busbw 2 x 2/3 x 50 / 1.5 = 44.4 GB/s.
  // 10 nodes: most are inner in one tree and leaves in the other, 4 halves, 2 x 9/10 x 50 / 2 = 45.
  // A window over the round trip to the root, shared by both trees, gave 22.5 and 21.1 at 1 GiB, and
  // the S4U engine 35.2 at 3 nodes: the schedule turned on the order of completions.
  TempDir dir;
  const std::string text = R"({"name": "deep", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/h100-10x8-rails.json", "placements": ["1x3", "1x10"], "algorithms": ["nccl_nvls_tree"],
                              "sizes": ["256MiB"], "iterations": 1, "warmup": 0,
                              "model": {"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"version": "2.29"}},
                              "variants": [{"name": "maestro", "model": {"engine": "maestro"}},
                                           {"name": "s4u", "model": {"engine": "s4u"}}]})";
  const auto results = run_times(dir, text);
  std::map<std::string, double> busbw;
  for (const auto& row : results.at("results"))
    busbw[row.at("variant").get<std::string>() + " " + std::to_string(row.at("ranks").get<int>())] = row.at("busbw_GBps").get<double>();
  CHECK(busbw["maestro 3"] == doctest::Approx(2.0 * 2 / 3 * 50 / 1.5).epsilon(0.06));
  CHECK(busbw["maestro 10"] == doctest::Approx(2.0 * 9 / 10 * 50 / 2).epsilon(0.06));
  CHECK(busbw["s4u 3"] == doctest::Approx(busbw["maestro 3"]).epsilon(0.01));
  CHECK(busbw["s4u 10"] == doctest::Approx(busbw["maestro 10"]).epsilon(0.01));
}

TEST_CASE("model made for NCCL: nccl_tree's LL chunk pays NCCL's tree network hop less its ring's at each hop to another node") {
  // Eight single-GPU nodes of the public IB cluster, 4 B under LL: the reduction climbs 3 levels of the
  // binary tree and the broadcast comes down 3. NCCL 2.6's tree hop less its ring's is 5.0 - 0.9 =
  // 4.1 us, 2.7's 5.0 - 2.7 = 2.3 us (tuning.cc); nothing else differs, so 2.6 takes 6 x 1.8 us longer.
  TempDir dir;
  double time_s[2] = {0, 0};
  const char* versions[2] = {"2.6", "2.7"};
  for (int v = 0; v < 2; ++v) {
    const std::string text = std::string(R"({"name": "hop", "topology": ")" RINGSIM_SOURCE_DIR
                                         R"(/topologies/hkbu-100GbIB-8x4.json", "placements": ["1-1-1-1-1-1-1-1"],
                                            "algorithms": ["nccl_tree"], "sizes": ["4"], "iterations": 1, "warmup": 0,
                                            "model": {"network": "NCCL", "nccl": {"version": ")") +
                             versions[v] + R"(", "protocol": "LL"}}})";
    time_s[v] = row_for(run_times(dir, text), "nccl_tree", 8).at("time_s").get<double>();
  }
  CHECK((time_s[0] - time_s[1]) * 1e6 == doctest::Approx(6 * 1.8).epsilon(0.01));
}

namespace {

// The simulated times of nccl_ring on TOPOLOGY and PLACEMENT at SIZES (a JSON list) under PROTOCOL, NCCL
// VERSION and the model made for NCCL, with its handshake (and LL128's hop) on and off, per size.
struct HandshakeTimes {
  std::vector<double> on_s, off_s;
};
HandshakeTimes handshake_times(const std::string& topology, const std::string& placement, const std::string& sizes,
                               const std::string& version, const std::string& protocol) {
  TempDir dir;
  const std::string nccl = R"("version": ")" + version + R"(", "protocol": ")" + protocol + R"(", )" + kNoSoftwareCosts;
  const std::string text = R"({"name": "handshake", "topology": ")" RINGSIM_SOURCE_DIR "/topologies/" + topology +
                           R"(", "placements": [")" + placement + R"("], "algorithms": ["nccl_ring"], "sizes": )" + sizes +
                           R"(, "iterations": 1, "warmup": 0, "variants": [{"name": "on", "model": {"nccl": {)" + nccl +
                           R"(}}}, {"name": "off", "model": {"nccl": {)" + nccl + R"(, "handshake": false}}}]})";
  const nlohmann::json results = run_times(dir, text);
  HandshakeTimes times;
  for (const auto& row : results.at("results")) {
    CHECK(row.at("engine") == "maestro");
    (row.at("variant") == "on" ? times.on_s : times.off_s).push_back(row.at("time_s").get<double>());
  }
  return times;
}

}  // namespace

TEST_CASE("model made for NCCL: Simple's handshake is a latency of every step, not a cost per byte") {
  // Two nodes of the public IB cluster (4 + 4 ranks, PCIe, staged through host memory), NCCL 2.6,
  // Simple at 256 KiB (one slice per step): each of a channel's 2(N-1) = 14 sends reaches its peer the
  // version's Simple hop latency less LL's later (tuning.cc: 5.7 - 1.0 us over PCIe, 6.6 - 0.9 us
  // across nodes) without holding the sender's thread block, so the chain of steps pays 13 to 14 of
  // them; at 2 MiB it adds no more than at 256 KiB (no cost per slice or byte).
  const HandshakeTimes t = handshake_times("hkbu-100GbIB-8x4.json", "4-4", R"(["256KiB", "2MiB"])", "2.6", "Simple");
  REQUIRE(t.on_s.size() == 2);
  REQUIRE(t.off_s.size() == 2);
  const double added_s = t.on_s[0] - t.off_s[0];
  CHECK(added_s >= 13 * 4.7e-6 * 0.999);
  CHECK(added_s <= 14 * 5.7e-6);
  CHECK(t.on_s[1] - t.off_s[1] <= added_s);
}

TEST_CASE("model made for NCCL: LL128 pays its hop latency beyond LL's on every step, on NVLink") {
  // One DGX A100 node (8 ranks on NVSwitch), NCCL 2.18, LL128: each of the 2(N-1) = 14 steps of the chain
  // pays LL128's NVLink hop less LL's (tuning.cc: 1.9 - 0.47 us), at 64 KiB and at 1 MiB alike.
  const HandshakeTimes t = handshake_times("dgx-a100-pair.json", "8", R"(["64KiB", "1MiB"])", "2.18", "LL128");
  REQUIRE(t.on_s.size() == 2);
  REQUIRE(t.off_s.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CAPTURE(i);
    CHECK(t.on_s[i] - t.off_s[i] == doctest::Approx(14 * (1.9 - 0.47) * 1e-6).epsilon(0.01));
  }
}

TEST_CASE("model made for NCCL: NCCL's software costs add their cost per call, per step and per GB, and only under that model") {
  // Two nodes of 4 on the public IB cluster (PCIe inside nodes, IB verbs between), NCCL's own choice
  // per size: with the costs each call takes exactly 20 us more, plus 3 us per step inside a node and
  // 7 us per step across nodes (nccl_software_costs.h: a ring's 2(N-1) = 14 steps all cross the
  // network; a tree's 2 x 3 stay inside nodes and 2 cross), plus 1000 us per GB of the buffer under
  // Simple and 2000 us under LL128 (64 MiB under Simple: 67.1 us more).
  TempDir dir;
  const std::string costs = R"("software": {"call": "20us", "intra_step": {"nvlink": "1us", "pcie": "3us"},)"
                            R"( "net_step": {"verbs": "7us", "ofi": "50us", "socket": "90us"},)"
                            R"( "per_gb": {"LL": "0us", "LL128": "2000us", "Simple": "1000us"}})";
  const std::string none = R"("software": {"call": "0us", "intra_step": "0us", "net_step": "0us", "per_gb": "0us"})";
  const std::string text = R"({"name": "software", "topology": ")" RINGSIM_SOURCE_DIR R"(/topologies/hkbu-100GbIB-8x4.json",)"
                           R"( "placements": ["4-4"], "algorithms": ["nccl"], "sizes": ["4KiB", "1MiB", "64MiB"], "iterations": 1,)"
                           R"( "warmup": 0, "variants": [{"name": "with", "model": {"nccl": {)" + costs + R"(}}},)"
                           R"( {"name": "without", "model": {"nccl": {)" + none + R"(}}},)"
                           R"( {"name": "smpi-with", "model": {"network": "SMPI", "nccl": {)" + costs + R"(}}},)"
                           R"( {"name": "smpi-without", "model": {"network": "SMPI", "nccl": {)" + none + R"(}}}]})";
  const nlohmann::json results = run_times(dir, text);
  std::map<std::string, std::map<std::uint64_t, nlohmann::json>> rows;
  for (const auto& row : results.at("results")) rows[row.at("variant")][row.at("bytes").get<std::uint64_t>()] = row;
  REQUIRE(rows["with"].size() == 3);
  std::set<std::string> algorithms;
  for (const auto& [bytes_key, with] : rows["with"]) {
    const std::uint64_t bytes = bytes_key;
    const nlohmann::json without = rows["without"].at(bytes);
    const std::string ran = with.at("nccl_ran");
    CAPTURE(bytes);
    CAPTURE(ran);
    REQUIRE(ran == without.at("nccl_ran").get<std::string>());
    const std::string algorithm = ran.substr(0, ran.find('/'));
    algorithms.insert(algorithm);
    const std::string protocol = ran.substr(ran.find('/') + 1);
    const double per_gb_us = protocol == "Simple" ? 1000 : protocol == "LL128" ? 2000 : 0;
    const double expected_us = (algorithm == "Ring" ? 20 + 14 * 7 : 20 + 6 * 3 + 2 * 7) + static_cast<double>(bytes) / 1e9 * per_gb_us;
    const double added_us = (with.at("time_s").get<double>() - without.at("time_s").get<double>()) * 1e6;
    // Exact but for the clock's rounding over a long run (0.13 us of 104 at 64 MiB, a 5 ms call).
    CHECK(std::abs(added_us - expected_us) <= 1e-3 * expected_us + 1e-4 * without.at("time_s").get<double>() * 1e6);
    // SMPI's MPI factors are not the model made for NCCL: nothing is spent there.
    CHECK(rows["smpi-with"].at(bytes).at("time_s").get<double>() == rows["smpi-without"].at(bytes).at("time_s").get<double>());
  }
  CHECK(algorithms.size() == 2);  // NCCL 2.18's model picks the tree at the small sizes, the ring at 64 MiB
}

TEST_CASE("model made for NCCL: LL's time grows at NCCL's LL bandwidth, the same on the S4U and maestro engines") {
  // Two 4-GPU nodes of the public IB cluster, NCCL 2.6: LL's bus bandwidth is a quarter of the
  // channel's (tuning.cc), half of what its flags on the wire leave; each channel's thread block paces
  // its sends to it. From 512 KiB to 1 MiB the simulated time grows as NCCL's model says, within 2%.
  TempDir dir;
  const std::string text = R"({"name": "ll", "topology": ")" RINGSIM_SOURCE_DIR
                           R"(/topologies/hkbu-100GbIB-8x4.json", "placements": ["4-4"], "algorithms": ["nccl_ring"],
                              "sizes": ["512KiB", "1MiB"], "iterations": 1, "warmup": 0,
                              "model": {"network": "NCCL", "nccl": {"version": "2.6", "protocol": "LL"}},
                              "variants": [{"name": "maestro", "model": {"engine": "maestro"}},
                                           {"name": "s4u", "model": {"engine": "s4u"}}]})";
  const auto results = run_times(dir, text);
  std::map<std::string, std::vector<nlohmann::json>> rows;
  for (const auto& row : results.at("results")) rows[row.at("variant").get<std::string>()].push_back(row);
  REQUIRE(rows["maestro"].size() == 2);
  REQUIRE(rows["s4u"].size() == 2);
  const auto& small = rows["maestro"][0];
  const auto& large = rows["maestro"][1];
  const double simulated = large.at("time_s").get<double>() - small.at("time_s").get<double>();
  const double nccl = large.at("closed_form_s").get<double>() - small.at("closed_form_s").get<double>();
  CAPTURE(simulated);
  CAPTURE(nccl);
  // Worked by hand from 2.6's tuning.cc: the search's one channel gets 6 GB/s (its two channels share the
  // GPUs' 12 GB/s PCIe switch uplink on the way to the NIC: `ringsim analyze ... --placement 4-4` says
  // "bus bandwidth 6.0 GB/s, limited by node0-pcie-switch0 down"), LL's quarter of it on the bus, 1.5
  // GB/s, algbw 1.5 x 8/14: the extra 512 KiB take 611.7 us.
  CHECK(nccl == doctest::Approx(524288.0 / (6e9 / 4 * 8 / 14)).epsilon(1e-6));
  CHECK(simulated == doctest::Approx(nccl).epsilon(0.02));
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(rows["s4u"][i].at("time_s").get<double>() == doctest::Approx(rows["maestro"][i].at("time_s").get<double>()).epsilon(1e-4));
}

TEST_CASE("default model for NCCL: nccl_ring's time never falls and its busbw never drops 5% as the size doubles") {
  // The shipped multi-NIC topologies and the fixtures' clusters, 1 KiB - 1 GiB (LL to 64 MiB: its 32 KiB
  // slices make 1 GiB 16M messages on 16 ranks, and NCCL's LL cap keeps it below). On the fixtures'
  // PCIe clusters only Simple and NCCL's choice from 1 MiB up hold: there LL and LL128 lose busbw at
  // large sizes and NCCL's choice between 8 and 64 KiB is not the simulated fastest (docs/algorithms.md).
  struct Case {
    std::string file, placement;
    bool nvlink;
  };
  const std::vector<Case> cases{{"dgx-a100-pair.json", "8-8", true},
                                {"h100-10x8-rails.json", "8-8", true},
                                {"hkbu-10GbE-16x4.json", "4-4", false},
                                {"hkbu-100GbIB-8x4.json", "4-4", false}};
  for (const Case& c : cases) {
    CAPTURE(c.file);
    // (time, busbw, what ran) per size, by variant.
    std::map<std::string, std::vector<std::tuple<double, double, std::string>>> by_variant;
    std::vector<std::tuple<std::string, std::string, std::size_t>> runs{
        {"1GiB", R"([{"name": "auto", "model": {}}, {"name": "Simple", "model": {"nccl": {"protocol": "Simple"}}}])", 21}};
    if (c.nvlink) {
      runs.emplace_back("1GiB", R"([{"name": "LL128", "model": {"nccl": {"protocol": "LL128"}}}])", 21);
      runs.emplace_back("64MiB", R"([{"name": "LL", "model": {"nccl": {"protocol": "LL"}}}])", 17);
    }
    for (const auto& [largest, variants, count] : runs) {
      TempDir dir;
      const std::string text = R"({"name": "monotonic", "topology": ")" RINGSIM_SOURCE_DIR "/topologies/" + c.file +
                               R"(", "placements": [")" + c.placement +
                               R"("], "algorithms": ["nccl_ring"], "sizes": {"from": "1KiB", "to": ")" + largest +
                               R"(", "factor": 2}, "iterations": 1, "warmup": 0, "variants": )" + variants + "}";
      const auto results = run_times(dir, text);
      for (const auto& variant : results.at("variants")) {
        REQUIRE(variant.at("model").at("network") == "NCCL");
        const std::string name = variant.at("name");
        CAPTURE(name);
        auto& by_size = by_variant[name];  // sizes in order
        for (const auto& row : results.at("results"))
          if (row.at("variant") == name)
            by_size.emplace_back(row.at("time_s").get<double>(), row.at("busbw_GBps").get<double>(), row.at("nccl_ran").get<std::string>());
        REQUIRE(by_size.size() == count);
      }
    }
    for (const auto& [name, by_size] : by_variant) {
      CAPTURE(name);
      const std::size_t from = c.nvlink || name != "auto" ? 1 : 10;
      for (std::size_t i = from; i < by_size.size(); ++i) {
        CAPTURE(i);
        const auto& [time, busbw, ran] = by_size[i];
        const auto& [previous_time, previous_busbw, previous_ran] = by_size[i - 1];
        CAPTURE(ran);
        if (name != "auto") CHECK(ran == "Ring/" + name);  // a forced protocol runs at every size
        // NCCL picks by its own model's times. Where it switches protocol the simulated time may fall
        // (it did from LL at 1 MiB to LL128 at 2 MiB on the NVLink pairs before LL128 paid its hop
        // latency beyond LL's; docs/algorithms.md). Within a protocol it never does.
        if (name == "auto" && c.nvlink && ran != previous_ran) continue;
        // At 2 and 4 KiB every piece is 16 bytes or empty, and the latency-bound times differ by the
        // order of equal events: 2e-4 of the time on two DGX A100 nodes with synchronous sends.
        CHECK(time >= previous_time * (1 - 1e-3));
        if (i >= 10) CHECK(busbw >= 0.95 * previous_busbw);  // from 1 MiB up
      }
    }
  }
}

TEST_CASE("nccl_tree sums exactly for N = 1..17 under each protocol with 1 and 3 channels and many chunks") {
  TempDir dir;
  auto topology = dir.write("five.json", kFiveNodeTopology);
  // Simple with a 64 KiB NCCL_BUFFSIZE: 8 KiB chunks (halved down to 32 KiB does not apply below it), so 1 MiB
  // takes many chunks per channel, more than the 8 in flight.
  std::string text = scenario(topology.string(), kOneToSeventeenRanks, R"(["nccl_tree"])", "[4, 68, 4036, 262148]", "{}", 1);
  text.pop_back();
  text += R"(, "variants": [{"name": "LL", "model": {"nccl": {"protocol": "LL"}}},
                            {"name": "LL128", "model": {"nccl": {"protocol": "LL128", "channels": 1}}},
                            {"name": "Simple", "model": {"nccl": {"protocol": "Simple", "channels": 3, "buffsize": "64KiB"}}}]})";
  const auto results = run_scenario(dir, text);
  check_exact_sums(results, 17 * 4 * 3);
}

TEST_CASE("nccl_tree's traffic: a leaf of one tree sends its half up and receives it down, 14 S in all") {
  TempDir dir;
  auto topology = dir.write("sixteen.json", R"({"racks": [{"nodes": [{"name": "n", "count": 16, "gpus": 1}]}]})");
  const auto results = run_times(
      dir, scenario(topology.string(), R"(["1-1-1-1-1-1-1-1"])", R"(["nccl_tree"])", "[1048576]", "{}", 0));
  const auto& row = row_for(results, "nccl_tree", 8);
  CAPTURE(row.dump());
  // An inner node of one tree receives two halves up and one down, 1.5 S; as a leaf of the other it
  // receives the other half down: at most 2 S. In total every rank but the two roots sends S/2 up per
  // tree, and every rank but the roots receives S/2 down per tree: 2 x 2 x 7 x S/2.
  CHECK(row.at("traffic").at("total_bytes").get<double>() == doctest::Approx(2.0 * 2 * 7 * (1 << 20) / 2));
  CHECK(row.at("traffic").at("max_rank_recv_bytes").get<double>() <= 2.0 * (1 << 20));
}

TEST_CASE("ideal model: nccl_tree at 64 MiB lies between NCCL's tree mechanics and its full model, and is S/B on 2 nodes") {
  TempDir dir;
  // One 100 Gb/s NIC per node behind a non-blocking switch; 2, 8 and 16 nodes of one GPU and 16 nodes of 4.
  auto topology = dir.write("ib.json", R"({"racks": [{"switch": {"bandwidth": "1600Gbps", "latency": "1us"},
      "nodes": [{"name": "n", "count": 16, "gpus": 4, "nic": {"bandwidth": "100Gbps", "latency": "1us"},
                 "intra": {"bandwidth": "400Gbps", "latency": "0.5us"}}]}]})");
  const std::string placements =
      R"(["1-1", "1-1-1-1-1-1-1-1", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1", "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4"])";
  const std::string model = R"({"network": "CM02", "crosstraffic": false, "factors": "none",
                                 "nccl": {"version": "2.18", "protocol": "Simple"}})";
  const auto results = run_times(dir, scenario(topology.string(), placements, R"(["nccl_tree"])", R"(["64MiB"])", model, 0));
  const double bytes = 64u << 20, nic = 12.5e9;
  for (const auto& [n, nodes] : {std::pair{8, 8}, std::pair{16, 16}, std::pair{64, 16}}) {
    const auto& row = row_for(results, "nccl_tree", n);
    CAPTURE(row.dump());
    // NCCL 2.18's tree mechanics (Simple): 2 (ranks per node - 1) x 6 us (PCIe hop) + 2 floor(log2 nodes)
    // x 14 us, plus S / (12.5 GB/s / 2): every NIC carries 2 S each way. Its full model adds the 0.92
    // efficiency and the size correction (0.8 at 64 MiB): 14.67-14.74 ms here.
    const double per_node = static_cast<double>(n) / nodes, log_nodes = nodes == 8 ? 3 : 4;
    const double core = (2 * (per_node - 1) * 6 + 2 * log_nodes * 14) * 1e-6 + bytes / (nic / 2);
    const double time = row.at("time_s").get<double>();
    CHECK(time > core);
    CHECK(time < row.at("closed_form_s").get<double>());
    CHECK(row.at("closed_form_s").get<double>() == doctest::Approx(core - bytes / (nic / 2) + bytes / (nic * 0.92 * 0.8 / 2)));
  }
  // Two nodes: each tree's root is the other's leaf, so every NIC carries S each way, not 2 S.
  CHECK(row_for(results, "nccl_tree", 2).at("time_s").get<double>() == doctest::Approx(bytes / nic).epsilon(0.02));
}

TEST_CASE("a topology whose GPU model contradicts its stated NVLink bandwidth gets a one-line warning, and the stated value") {
  TempDir dir;
  const auto topology = dir.write("odd.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 8, "gpu_model": "H100 SXM",
      "intra": {"kind": "nvlink", "bandwidth": "300GBps"}}]}]})");
  const auto run = run_ringsim("platform " + topology.string() + " -o " + (dir.path() / "p.xml").string(), dir.path());
  CHECK(run.exit_code == 0);
  CHECK(run.err == "ringsim: warning: " + topology.string() +
                       ": /racks/0/nodes/0/intra/bandwidth: 300 GB/s per GPU, but an H100 SXM has 450 GB/s (18 NVLink links); "
                       "the stated value is used\n");
  CHECK(read_text(dir.path() / "p.xml").find("bandwidth=\"300000000000") != std::string::npos);
}
