// Whole-program tests of the collectives beyond allreduce (sim/rank/collective_catalog.h): every
// algorithm of every collective gives the exact result on every engine, and on the ideal model each
// simulated time is its closed form (sim/analysis/collective_costs.h) within 1% for N = 2..17, the
// ring all-gather and reduce-scatter reaching the link rate as busbw.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../unit/temp_files.h"
#include "one_to_seventeen_ranks.h"
#include "ringsim_process.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

using namespace ringsim::testing;

namespace {

constexpr const char* kIdealModel = R"({"network": "CM02", "crosstraffic": false, "factors": "none"})";

// The scenarios that together name every algorithm of every collective (a scenario's algorithms must
// each have a version for each of its collectives), and how many algorithm x collective pairs each runs.
struct Group {
  const char* algorithms;
  const char* collectives;
  std::size_t pairs;
};
constexpr Group kGroups[] = {
    {R"(["ring"])", R"(["all_gather", "reduce_scatter", "broadcast", "reduce", "sendrecv"])", 5},
    {R"(["binomial", "chain"])", R"(["broadcast", "reduce"])", 4},
    {R"(["pairwise", "linear"])", R"(["alltoall"])", 2},
};

std::string scenario(const std::string& topology, const std::string& placements, const Group& group, const std::string& sizes,
                     const std::string& model) {
  return R"({"name": "collectives", "topology": ")" + topology + R"(", "placements": )" + placements +
         R"(, "algorithms": )" + group.algorithms + R"(, "collectives": )" + group.collectives + R"(, "sizes": )" + sizes +
         R"(, "iterations": 1, "warmup": 0, "model": )" + model + "}";
}

nlohmann::json run_scenario(const TempDir& dir, const std::string& name, const std::string& text) {
  const auto file = dir.write(name + ".json", text);
  const auto json = dir.path() / (name + "-results.json");
  const auto run = run_ringsim("run " + file.string() + " --quiet --jobs 2 --json " + json.string() + " > " +
                                   (dir.path() / (name + "-table.txt")).string(),
                               dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return read_json(json);
}

// run_scenario for the tests of times and traffic: nothing holds values (times_only).
nlohmann::json run_times(const TempDir& dir, const std::string& name, const std::string& text) {
  return run_scenario(dir, name, times_only(text));
}

// Every row exact; ROWS rows, each carrying its collective.
void check_exact(const nlohmann::json& results, std::size_t rows) {
  REQUIRE(results.at("results").size() == rows);
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.contains("collective"));
    REQUIRE(row.at("wrong").is_number());
    CHECK(row.at("wrong").get<long long>() == 0);
  }
}

void check_exact_on(const std::string& engine, const std::string& placements, std::size_t placement_count,
                    const std::string& sizes, std::size_t size_count) {
  TempDir dir;
  const auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string model = R"({"engine": ")" + engine + "\"}";
  int index = 0;
  for (const Group& group : kGroups) {
    CAPTURE(group.algorithms);
    const auto results = run_scenario(dir, "group" + std::to_string(index++), scenario(topology.string(), placements, group, sizes, model));
    check_exact(results, placement_count * group.pairs * size_count);
  }
}

}  // namespace

TEST_CASE("SMPI: every collective algorithm gives the exact result for N = 1..17 with counts not divisible by N") {
  // 1 float (fewer than the ranks: alltoall's blocks are empty), 17, 1009 and 65537 floats.
  check_exact_on("smpi", kOneToSeventeenRanks, 17, "[4, 68, 4036, 262148]", 4);
}

TEST_CASE("S4U and maestro: every collective algorithm gives the exact result on small N") {
  const std::string placements = R"(["1", "2", "1-1-1", {"ranks": "2-2-1", "order": "cyclic"}, "4-3", "4-4-4-1"])";
  check_exact_on("s4u", placements, 6, "[68, 4036]", 2);
  check_exact_on("maestro", placements, 6, "[68, 4036]", 2);
}

namespace {

constexpr const char* kSeventeenNodes = R"({"racks": [{"nodes": [{"name": "n", "count": 17, "gpus": 1}]}]})";

// The placements of N = 2..17 ranks, one per node: ["1-1", "1-1-1", ...].
std::string one_rank_per_node_placements() {
  std::string placements;
  for (int n = 2; n <= 17; ++n) {
    std::string ranks = "1";
    for (int r = 1; r < n; ++r) ranks += "-1";
    placements += (placements.empty() ? "[\"" : ", \"") + ranks + "\"";
  }
  return placements + "]";
}

// On the ideal model, one rank per node on 17 single-GPU nodes: every row of GROUP within 1% of its
// closed form, for N = 2..17, at 16 MiB (every chain segment, ring piece and alltoall block spans many packets).
void check_closed_forms(const Group& group) {
  TempDir dir;
  // One rank per node behind a non-blocking switch, split-duplex 10 Gbps NICs: the formulas' case.
  const auto topology = dir.write("seventeen.json", kSeventeenNodes);
  const auto results =
      run_times(dir, "ideal", scenario(topology.string(), one_rank_per_node_placements(), group, R"(["16MiB"])", kIdealModel));
  REQUIRE(results.at("results").size() == 16 * group.pairs);
  std::set<int> ranks;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.contains("closed_form_s"));
    const double simulated = row.at("time_s").get<double>(), closed = row.at("closed_form_s").get<double>();
    CHECK(std::abs(simulated - closed) / closed < 0.01);
    ranks.insert(row.at("ranks").get<int>());
  }
  CHECK(ranks.size() == 16);
}

}  // namespace

TEST_CASE("ideal model: ring all-gather, reduce-scatter and sendrecv are within 1 percent of their closed forms for N = 2..17") {
  check_closed_forms({R"(["ring"])", R"(["all_gather", "reduce_scatter", "sendrecv"])", 3});
}

TEST_CASE("ideal model: binomial and chain broadcast and reduce are within 1 percent of their closed forms for N = 2..17") {
  // `ring` under broadcast and reduce is the chain: the same code (collective_catalog.h).
  check_closed_forms({R"(["binomial", "chain"])", R"(["broadcast", "reduce"])", 4});
}

TEST_CASE("ideal model: pairwise and linear alltoall are within 1 percent of their closed forms for N = 2..17") {
  check_closed_forms(kGroups[2]);
}

namespace {

// NCCL's ring broadcast and reduce on the ideal model with C = 2 channels under Simple (4 MiB buffers:
// one-step slices of s = 512 KiB): each channel's share n/C crosses the N-1 hops of its chain in
// k = ceil(n/(C s)) slices, one at a time per hop, and the C channels share every NIC, so each hop of a
// slice takes alpha + C s beta: T = (N - 2 + k)(alpha + C s beta). Reduce adds each slice before passing
// it on, C s gamma a hop for the channels together, on the path of the last slice only (the adds of the
// others overlap the transfers): + (N - 1) C s gamma.
double nccl_chain_time_s(const nlohmann::json& row) {
  const double channels = 2, step = 512 << 10;
  const double n = row.at("bytes").get<double>(), ranks = row.at("ranks").get<double>();
  const auto& cost = row.at("cost_model");
  const double alpha = cost.at("alpha_s").get<double>(), beta = cost.at("beta_s_per_byte").get<double>();
  const double gamma = cost.at("gamma_s_per_byte").get<double>();
  const double k = std::ceil(n / (channels * step));
  const double adds = row.at("collective") == "reduce" ? (ranks - 1) * channels * step * gamma : 0;
  return (ranks - 2 + k) * (alpha + channels * step * beta) + adds;
}

constexpr const char* kIdealNcclModel =
    R"({"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"channels": 2, "protocol": "Simple"}})";
const Group kNcclChains{R"(["nccl_ring"])", R"(["broadcast", "reduce"])", 2};

}  // namespace

TEST_CASE("ideal model: NCCL's ring broadcast and reduce are within 1 percent of their chain's closed form for N = 2..17") {
  TempDir dir;
  const auto topology = dir.write("seventeen.json", kSeventeenNodes);
  const auto results =
      run_times(dir, "ideal-nccl", scenario(topology.string(), one_rank_per_node_placements(), kNcclChains, R"(["16MiB"])", kIdealNcclModel));
  REQUIRE(results.at("results").size() == 16 * 2);
  std::set<int> ranks;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const double simulated = row.at("time_s").get<double>(), closed = nccl_chain_time_s(row);
    CHECK(std::abs(simulated - closed) / closed < 0.01);
    CHECK(row.at("nccl_ran") == "Ring/Simple");
    ranks.insert(row.at("ranks").get<int>());
  }
  CHECK(ranks.size() == 16);
}

TEST_CASE("ideal model: NCCL's ring broadcast and reduce reach the link rate as busbw at 1 GiB") {
  // 4 ranks, k = 1024 slices per channel: T = 1026 (alpha + C s beta), within 1% of the link's n beta.
  TempDir dir;
  const auto topology = dir.write("four.json", R"({"racks": [{"nodes": [{"name": "n", "count": 4, "gpus": 1}]}]})");
  const auto results = run_times(dir, "nccl-busbw", scenario(topology.string(), R"(["1-1-1-1"])", kNcclChains, R"(["1GiB"])", kIdealNcclModel));
  REQUIRE(results.at("results").size() == 2);
  const double link_GBps = 10e9 / 8 / 1e9;  // the 10 Gbps NIC
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const double time = row.at("time_s").get<double>();
    CHECK(std::abs(time - nccl_chain_time_s(row)) / time < 0.01);
    // busbw = algbw (nccl-tests' factor 1 for both).
    CHECK(row.at("busbw_GBps").get<double>() == doctest::Approx(row.at("algbw_GBps").get<double>()));
    CHECK(std::abs(row.at("busbw_GBps").get<double>() - link_GBps) / link_GBps < 0.01);
    // Every rank but the chain's ends sends and receives the whole buffer once.
    CHECK(row.at("traffic").at("max_rank_sent_bytes").get<double>() == doctest::Approx(1u << 30));
    CHECK(row.at("traffic").at("max_rank_recv_bytes").get<double>() == doctest::Approx(1u << 30));
  }
}

TEST_CASE("ideal model: ring all-gather and reduce-scatter reach the link rate as busbw, counted as nccl-tests counts it with their traffic") {
  TempDir dir;
  const auto topology = dir.write("eight.json", R"({"racks": [{"nodes": [{"name": "n", "count": 8, "gpus": 1}]}]})");
  const Group ring{R"(["ring"])", R"(["all_gather", "reduce_scatter", "sendrecv"])", 3};
  const auto results = run_times(dir, "busbw", scenario(topology.string(), R"(["1-1-1-1-1-1-1-1"])", ring, R"(["64MiB"])", kIdealModel));
  const double link_GBps = 10e9 / 8 / 1e9;  // the 10 Gbps NIC
  const double bytes = 64.0 * (1 << 20);
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const double time = row.at("time_s").get<double>();
    const double factor = row.at("collective") == "sendrecv" ? 1.0 : 7.0 / 8;
    CHECK(row.at("algbw_GBps").get<double>() == doctest::Approx(bytes / time / 1e9));
    CHECK(row.at("busbw_GBps").get<double>() == doctest::Approx(bytes / time / 1e9 * factor));
    CHECK(std::abs(row.at("busbw_GBps").get<double>() - link_GBps) / link_GBps < 0.01);
    // Each rank sends and receives (N-1)/N of the size (sendrecv: all of it).
    CHECK(row.at("traffic").at("max_rank_sent_bytes").get<double>() == doctest::Approx(factor * bytes));
    CHECK(row.at("traffic").at("max_rank_recv_bytes").get<double>() == doctest::Approx(factor * bytes));
  }
}

TEST_CASE("alltoall: pairwise sends N-1 blocks in N-1 messages, linear the same bytes at once") {
  TempDir dir;
  const std::string topology = RINGSIM_SOURCE_DIR "/topologies/cluster-8x4-10GbE.json";
  const auto results = run_times(dir, "alltoall", scenario(topology, R"(["4-4"])", kGroups[2], R"(["8MiB"])", "{}"));
  REQUIRE(results.at("results").size() == 2);
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    CHECK(row.at("collective") == "alltoall");
    CHECK(row.at("traffic").at("max_rank_sent_bytes") == 7 * (1u << 20));
    CHECK(row.at("traffic").at("total_bytes") == 8 * 7 * (1u << 20));
    CHECK(row.at("traffic").at("steps") == 7);
  }
}

namespace {

// Every row of GROUP (NCCL's algorithms) exact on the six small placements at SIZES (SIZE_COUNT of
// them) on SMPI, S4U and maestro, with 3 channels and the NCCL keys EXTRA_NCCL ("" or `, "key": value`).
void check_nccl_exact(const Group& group, const std::string& sizes, std::size_t size_count, const std::string& extra_nccl = "") {
  TempDir dir;
  const auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string placements = R"(["1", "2", "1-1-1", {"ranks": "2-2-1", "order": "cyclic"}, "4-3", "4-4-4-1"])";
  for (const char* engine : {"smpi", "s4u", "maestro"}) {
    CAPTURE(engine);
    // SMPI cannot pace LL's sends, which the model made for NCCL asks for: it runs under SMPI's network.
    // S4U cannot deliver Simple's handshake as a latency: it runs without it.
    const std::string network = std::string(engine) == "smpi" ? R"("network": "SMPI", )" : "";
    const std::string handshake = std::string(engine) == "s4u" ? R"(, "handshake": false)" : "";
    const std::string model = std::string(R"({"engine": ")") + engine + R"(", )" + network + R"("nccl": {"channels": 3)" + handshake +
                              extra_nccl + "}}";
    check_exact(run_scenario(dir, std::string("nccl-") + engine, scenario(topology.string(), placements, group, sizes, model)),
                6 * group.pairs * size_count);
  }
}

}  // namespace

TEST_CASE("NCCL's ring all-gather and reduce-scatter give the exact result on every engine, blocks of unequal length included") {
  // 17 floats (blocks of 1 to 17 floats, some channels' shares empty) and 1009 floats.
  check_nccl_exact({R"(["nccl_ring", "nccl"])", R"(["all_gather", "reduce_scatter"])", 4}, "[68, 4036]", 2);
}

TEST_CASE("NCCL's point-to-point alltoall and sendrecv give the exact result on every engine, in parts over channels and 8 chunks in flight") {
  // 17 floats (empty blocks), 1009, and 4 MiB + 4 bytes: parts of unequal length (4 KiB-aligned), more
  // chunks per part than the 8 in flight.
  check_nccl_exact({R"(["nccl_p2p", "nccl"])", R"(["alltoall", "sendrecv"])", 4}, "[68, 4036, 4194308]", 3);
}

TEST_CASE("NCCL's ring broadcast and reduce give the exact result on every engine, each channel's ring opened at rank 0") {
  // 17 floats (shares of 6, 6 and 5 floats), 1009, and 256 KiB + 4 bytes in 8 KiB steps (the smallest
  // buffsize): 11 steps per channel, more than the 8 in flight, the last one short.
  check_nccl_exact({R"(["nccl_ring", "nccl"])", R"(["broadcast", "reduce"])", 4}, "[68, 4036, 262148]", 3,
                   R"(, "buffsize": "64KiB")");
}

TEST_CASE("NCCL's point-to-point alltoall and sendrecv: one paced message per part gives the chunk-by-chunk times within 1.5 percent at 64 MiB, 10 at 4 MiB") {
  // H100 rails (400 Gb/s NIC per GPU, NVLink), NCCL 2.29: 1 and 2 GPUs per node on 5 nodes, where the
  // chunk-by-chunk schedule is quick to simulate. The alltoall's NICs bind (many parts share each), the
  // sendrecv's thread blocks (one part per channel, 14 GB/s each): both regimes of the pace. One message
  // per part is faster: it leaves without waiting for its first chunk's copy (5-9 us, measured 6-8% of a
  // 4 MiB call, 0.3-1.1% at 64 MiB).
  TempDir dir;
  const Group nccl{R"(["nccl"])", R"(["alltoall", "sendrecv"])", 2};
  const std::string placements = R"(["1-1-1-1-1", "2-2-2-2-2"])";
  const auto times = [&](const std::string& name, const std::string& flows) {
    const std::string model = R"({"engine": "maestro", "nccl": {"version": "2.29.2", "compute_capability": 90)" + flows + "}}";
    const auto results = run_times(dir, name, scenario(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json", placements, nccl,
                                                          R"(["4MiB", "64MiB"])", model));
    std::map<std::string, double> by_case;
    for (const auto& row : results.at("results"))
      by_case[row.at("placement").dump() + row.at("collective").get<std::string>() + std::to_string(row.at("bytes").get<long long>())] =
          row.at("time_s").get<double>();
    return by_case;
  };
  const std::map<std::string, double> parts = times("parts", ""), chunks = times("chunks", R"(, "p2p_flows": "chunks")");
  REQUIRE(parts.size() == 2 * 2 * 2);
  REQUIRE(chunks.size() == parts.size());
  for (const auto& [key, time_s] : parts) {
    const std::string which = key;
    const double part_s = time_s, chunk_s = chunks.at(which);
    CAPTURE(which);
    CAPTURE(part_s);
    CAPTURE(chunk_s);
    CHECK(std::abs(part_s / chunk_s - 1) < (which.ends_with("67108864") ? 0.015 : 0.10));
  }
}

TEST_CASE("NCCL's ring all-gather and reduce-scatter reach all-reduce's busbw where the NICs bind, at NCCL's protocol for each") {
  // 16 H100 ranks on 4 rail-optimized nodes (4 per node: 4 NICs of 400 Gb/s per node in use) at 1 GiB:
  // each moves (N-1)/N of the size over the NICs where the all-reduce moves 2(N-1)/N, so all three
  // reach the same busbw (NCCL's bus bandwidth at the NICs). NCCL's model prices each function's ring.
  // NCCL's software costs off: the test is of the NICs' rate.
  TempDir dir;
  const Group nccl{R"(["nccl_ring"])", R"(["all_reduce", "all_gather", "reduce_scatter"])", 3};
  const std::string no_software_costs =
      R"({"nccl": {"software": {"call": "0us", "intra_step": "0us", "net_step": "0us", "per_gb": "0us"}}})";
  const auto results = run_times(dir, "nccl-busbw", scenario(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json", R"(["4-4-4-4"])",
                                                                  nccl, R"(["1MiB", "1GiB"])", no_software_costs));
  std::map<std::string, nlohmann::json> at_1GiB, at_1MiB;
  for (const auto& row : results.at("results"))
    (row.at("bytes") == 1u << 30 ? at_1GiB : at_1MiB)[row.value("collective", "all_reduce")] = row;
  REQUIRE(at_1GiB.size() == 3);
  const double all_reduce = at_1GiB.at("all_reduce").at("busbw_GBps").get<double>();
  for (const char* half : {"all_gather", "reduce_scatter"}) {
    CAPTURE(half);
    CHECK(std::abs(at_1GiB.at(half).at("busbw_GBps").get<double>() / all_reduce - 1) < 0.01);
    // Half the all-reduce's time: N-1 steps instead of 2(N-1).
    CHECK(at_1GiB.at(half).at("time_s").get<double>() / at_1GiB.at("all_reduce").at("time_s").get<double>() ==
          doctest::Approx(0.5).epsilon(0.01));
    CHECK(at_1GiB.at(half).at("nccl_ran") == "Ring/Simple");
  }
  CHECK(all_reduce == doctest::Approx(198.3).epsilon(0.01));
}

namespace {

// One NVSwitch node of 17 GPUs; N = 1..17 ranks on it.
constexpr const char* kNvSwitchNode = R"({"racks": [{"nodes": [{"name": "n", "gpus": 17, "intra": {"kind": "nvlink"}}]}]})";
const Group kNcclNvls{R"(["nccl_nvls"])", R"(["all_gather", "reduce_scatter"])", 2};

std::string one_node_placements(int from) {
  std::string placements = "[";
  for (int n = from; n <= 17; ++n) placements += (n > from ? ", \"" : "\"") + std::to_string(n) + "\"";
  return placements + "]";
}

}  // namespace

TEST_CASE("NCCL's NVLS all-gather and reduce-scatter give the exact result for N = 1..17 on one NVSwitch node, on S4U and maestro") {
  // 4194308 bytes: blocks of 524289 floats on 2 ranks (128 steps of NCCL's 16 KiB chunk, many windows
  // of 4 in flight), 61681 on 17 (uneven). SMPI cannot weigh the switch's traffic: nccl_nvls refuses it.
  TempDir dir;
  const auto topology = dir.write("one.json", kNvSwitchNode);
  for (const char* engine : {"s4u", "maestro"}) {
    CAPTURE(engine);
    const std::string model = std::string(R"({"engine": ")") + engine + "\"}";
    check_exact(run_scenario(dir, std::string("nvls-") + engine, scenario(topology.string(), one_node_placements(1), kNcclNvls,
                                                                           "[68, 4194308]", model)),
                17 * 2 * 2);
  }
}

TEST_CASE("ideal model: NCCL's NVLS all-gather and reduce-scatter are within 1 percent of their closed form for N = 2..17") {
  // Each port takes in (all-gather) or gives out (reduce-scatter) the N-1 other blocks at NCCL's NVLS
  // efficiency e = 0.85 (Hopper): T = L + (N-1)/N S beta / e, with L NCCL 2.29's NVLS latency, 25 us.
  // NVLink's latency is set near 0: each window of steps in flight pays a latency the closed form has not
  // (docs/collectives.md, "NCCL's NVLS all-gather and reduce-scatter").
  TempDir dir;
  const auto topology = dir.write("one.json", R"({"racks": [{"nodes": [{"name": "n", "gpus": 17, "intra": {"kind": "nvlink", "latency": "0.001us"}}]}]})");
  const std::string model = R"({"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"version": "2.29", "compute_capability": 90}})";
  const auto results = run_times(dir, "nvls-ideal", scenario(topology.string(), one_node_placements(2), kNcclNvls, R"(["64MiB"])", model));
  REQUIRE(results.at("results").size() == 16 * 2);
  std::set<int> ranks;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const double n = row.at("ranks").get<double>(), bytes = row.at("bytes").get<double>();
    const double beta = row.at("cost_model").at("beta_s_per_byte").get<double>();
    const double closed = 25e-6 + (n - 1) / n * bytes * beta / 0.85;
    CHECK(std::abs(row.at("time_s").get<double>() - closed) / closed < 0.01);
    CHECK(row.at("nccl_ran") == "NVLS/Simple");
    ranks.insert(row.at("ranks").get<int>());
  }
  CHECK(ranks.size() == 16);
  // At 1 GiB on 8 ranks busbw is the port's 300 GB/s at NVLS's efficiency, 255 GB/s, within 1% (the 25 us
  // are 0.7% of the 3.68 ms).
  const auto big = run_times(dir, "nvls-busbw", scenario(topology.string(), R"(["8"])", kNcclNvls, R"(["1GiB"])", model));
  REQUIRE(big.at("results").size() == 2);
  for (const auto& row : big.at("results")) {
    CAPTURE(row.dump());
    CHECK(std::abs(row.at("busbw_GBps").get<double>() / 255 - 1) < 0.01);
  }
}

namespace {

const Group kNcclPat{R"(["nccl_pat"])", R"(["all_gather", "reduce_scatter"])", 2};

// nccl_pat's rows exact for N = 1..17 (block and cyclic placements, uneven nodes) on ENGINE, with 3
// channels: 17 floats (blocks of 0 or 1 float, empty channel shares) and 1 MiB + 4 bytes (6 chunks of
// 64 KiB per channel on 2 ranks, more than the chunks in flight from 8 ranks on, uneven blocks).
void check_pat_exact(const std::string& engine) {
  TempDir dir;
  const auto topology = dir.write("five.json", kFiveNodeTopology);
  const std::string network = engine == "smpi" ? R"("network": "SMPI", )" : "";
  const std::string model = R"({"engine": ")" + engine + R"(", )" + network + R"("nccl": {"channels": 3}})";
  check_exact(run_scenario(dir, "pat-" + engine, scenario(topology.string(), kOneToSeventeenRanks, kNcclPat, "[68, 1048580]", model)),
              17 * 2 * 2);
}

}  // namespace

TEST_CASE("NCCL's PAT all-gather and reduce-scatter give the exact result for N = 1..17 on SMPI") { check_pat_exact("smpi"); }

TEST_CASE("NCCL's PAT all-gather and reduce-scatter give the exact result for N = 1..17 on S4U and maestro") {
  check_pat_exact("s4u");
  check_pat_exact("maestro");
}

TEST_CASE("ideal model: NCCL's PAT all-gather and reduce-scatter are within 1 percent of their closed form for N = 2..17, busbw the link rate") {
  // Each rank sends and receives N-1 blocks' chunks, one per edge of the trees, on its one NIC; with
  // the channels side by side and chunk steps in flight the NIC never waits but for the trees' depth:
  // T = ceil(lg N) alpha + (N-1)/N S beta (docs/collectives.md, "NCCL's PAT all-gather and reduce-scatter").
  TempDir dir;
  const auto topology = dir.write("seventeen.json", kSeventeenNodes);
  const std::string model = R"({"network": "CM02", "crosstraffic": false, "factors": "none", "nccl": {"version": "2.29"}})";
  const auto results = run_times(dir, "pat-ideal", scenario(topology.string(), one_rank_per_node_placements(), kNcclPat, R"(["64MiB"])", model));
  REQUIRE(results.at("results").size() == 16 * 2);
  std::set<int> ranks;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const double n = row.at("ranks").get<double>(), bytes = row.at("bytes").get<double>();
    const double alpha = row.at("cost_model").at("alpha_s").get<double>(), beta = row.at("cost_model").at("beta_s_per_byte").get<double>();
    const double closed = std::ceil(std::log2(n)) * alpha + (n - 1) / n * bytes * beta;
    CHECK(std::abs(row.at("time_s").get<double>() - closed) / closed < 0.01);
    CHECK(std::abs(row.at("busbw_GBps").get<double>() / (1 / beta / 1e9) - 1) < 0.01);  // the NIC's 1.25 GB/s
    CHECK(row.at("nccl_ran") == "PAT/Simple");
    ranks.insert(row.at("ranks").get<int>());
  }
  CHECK(ranks.size() == 16);
}

TEST_CASE("nccl runs PAT where NCCL 2.29's model picks it on 10 x 1 H100 (1 MiB), the ring above the 9.51 MiB crossover (16 MiB)") {
  // The crossover: docs/collectives.md, "NCCL's PAT all-gather and reduce-scatter". Below it `nccl` runs
  // nccl_pat's code, so its time is nccl_pat's; above it the ring's.
  TempDir dir;
  const Group both{R"(["nccl", "nccl_pat"])", R"(["all_gather", "reduce_scatter"])", 4};
  const std::string model = R"({"nccl": {"version": "2.29", "compute_capability": 90}})";
  const auto results = run_scenario(dir, "nccl-pat", scenario(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json",
                                                              R"(["1-1-1-1-1-1-1-1-1-1"])", both, R"(["1MiB", "16MiB"])", model));
  REQUIRE(results.at("results").size() == 4 * 2);
  std::map<std::string, double> time_s;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    const std::string algorithm = row.at("algorithm"), collective = row.at("collective");
    const bool small = row.at("bytes").get<double>() < (8 << 20);
    CHECK(row.at("nccl_ran") == (small || algorithm == "nccl_pat" ? "PAT/Simple" : "Ring/Simple"));
    if (small) CHECK(row.at("wrong").get<long long>() == 0);
    time_s[algorithm + " " + collective + (small ? " 1MiB" : " 16MiB")] = row.at("time_s").get<double>();
  }
  for (const char* collective : {"all_gather", "reduce_scatter"}) {
    CAPTURE(collective);
    const std::string name = collective;
    const double chosen = time_s.at("nccl " + name + " 1MiB"), pat = time_s.at("nccl_pat " + name + " 1MiB");
    CAPTURE(chosen);
    CAPTURE(pat);
    CHECK(std::abs(chosen / pat - 1) < 1e-3);  // the same code, on maestro (nccl, for its ring) and SMPI
  }
}
