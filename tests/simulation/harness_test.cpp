// The rank program's harness (sim/rank/rank_main.cpp), whole-program:
// - its own messages: outside the timed calls it may send O(N) messages per timed call and per size
//   (a barrier and reductions), never a collective whose cost grows faster (a start-up
//   MPI_Allgather of processor names would make 256 ranks 8x slower). Counted under SMPI with the rank
//   program's --count-messages hook: every message the network model carries, those inside MPI
//   collectives included; the algorithm's own messages are known from its schedule.
// - rank 0's progress: `ringsim run` relays it for long cases, and --quiet silences it.
#include "../unit/temp_files.h"
#include "ringsim_process.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>

using namespace ringsim::testing;

namespace {

constexpr int kGpusPerNode = 8;

struct CountedRun {
  std::uint64_t messages = 0;  // every network message of the run
  nlohmann::json report;       // rank 0's report
};

// Runs the rank program on RANKS ranks (block, 8 per node of a generated platform) under smpirun with
// the settings the launcher uses, and counts the run's messages.
CountedRun counted_run(const TempDir& dir, int ranks, const std::string& algorithm, const std::string& sizes,
                       int iterations, int warmup) {
  const int nodes = ranks / kGpusPerNode;
  const auto topology = dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "n", "count": )" +
                                                       std::to_string(nodes) + R"(, "gpus": 8}]}]})");
  const auto platform = dir.path() / "platform.xml";
  const auto made = run_ringsim("platform " + topology.string() + " -o " + platform.string(), dir.path());
  REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  std::string hosts, node_list;
  for (int node = 0; node < nodes; ++node) {
    for (int gpu = 0; gpu < kGpusPerNode; ++gpu) hosts += "n" + std::to_string(node) + "-gpu" + std::to_string(gpu) + "\n";
    node_list += (node == 0 ? "" : ",") + std::to_string(node) + "x" + std::to_string(kGpusPerNode);
  }
  const auto hostfile = dir.write("hostfile", hosts);
  const auto report = dir.path() / "report.json", count = dir.path() / "messages.txt";
  const std::string rank_library = (std::filesystem::path(RINGSIM_BINARY).parent_path() / "ringsim-rank-smpi.so").string();
  const auto run = run_shell("smpirun -np " + std::to_string(ranks) + " -platform " + platform.string() + " -hostfile " +
                                 hostfile.string() +
                                 " -no-privatize --cfg=smpi/simulate-computation:no"
                                 " --cfg=smpi/shared-malloc-blocksize:67108864 --log=root.thresh:warning " +
                                 rank_library + " --algorithm " + algorithm + " --sizes " + sizes + " --iterations " +
                                 std::to_string(iterations) + " --warmup " + std::to_string(warmup) + " --nodes " +
                                 node_list + " --out " + report.string() + " --count-messages " + count.string(),
                             dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, std::string(run.err + run.out));
  CountedRun counted;
  counted.messages = std::stoull(read_text(count));
  counted.report = read_json(report);
  return counted;
}

// The harness's messages of a run of SIZES sizes, given the algorithm's messages per call.
std::uint64_t harness_messages(const CountedRun& run, std::uint64_t algorithm_per_call, int sizes, int iterations,
                               int warmup) {
  const std::uint64_t algorithm_total = algorithm_per_call * static_cast<std::uint64_t>(sizes * (iterations + warmup));
  REQUIRE(run.messages >= algorithm_total);
  return run.messages - algorithm_total;
}

// At most c·N messages per timed call and per size, c = 4: a barrier is 2(N-1) messages (SMPI's
// default, linear), a reduction N-1; per size the result check and the traffic summary are 3
// reductions. An N-record all-to-all (an MPI_Allgather: N(N-1) messages) breaks it from N = 64 on.
std::uint64_t harness_bound(int ranks, int sizes, int iterations) {
  return 4ULL * static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(sizes * (iterations + 1));
}

}  // namespace

TEST_CASE("the harness sends at most 4N messages per timed call and per size: reduce_bcast at N = 8, 64, 256") {
  const int sizes = 2, iterations = 2, warmup = 1;
  for (int ranks : {8, 64, 256}) {
    CAPTURE(ranks);
    TempDir dir;
    const CountedRun run = counted_run(dir, ranks, "reduce_bcast", "1024,4096", iterations, warmup);
    // A binomial reduce and a binomial broadcast: N-1 messages each.
    const std::uint64_t harness = harness_messages(run, 2ULL * (ranks - 1), sizes, iterations, warmup);
    CAPTURE(run.messages);
    CHECK(harness <= harness_bound(ranks, sizes, iterations));
    // The count sees messages inside collectives: at least the timing's MPI_Reduce of every timed call.
    CHECK(harness >= static_cast<std::uint64_t>(sizes * iterations * (ranks - 1)));
    for (const auto& size : run.report.at("sizes")) CHECK(size.at("wrong") == 0);
  }
}

TEST_CASE("the harness sends at most 4N messages per timed call and per size: ring at N = 8 and 64") {
  const int sizes = 2, iterations = 2, warmup = 1;
  for (int ranks : {8, 64}) {
    CAPTURE(ranks);
    TempDir dir;
    const CountedRun run = counted_run(dir, ranks, "ring", "1024,4096", iterations, warmup);
    // Every rank sends 2(N-1) messages per call (the report's steps say so too).
    const std::uint64_t per_rank = 2ULL * (ranks - 1);
    for (const auto& size : run.report.at("sizes")) CHECK(size.at("traffic").at("steps") == per_rank);
    const std::uint64_t harness = harness_messages(run, per_rank * ranks, sizes, iterations, warmup);
    CAPTURE(run.messages);
    CHECK(harness <= harness_bound(ranks, sizes, iterations));
    CHECK(harness >= static_cast<std::uint64_t>(sizes * iterations * (ranks - 1)));
  }
}

TEST_CASE("hierarchical runs from the launcher's --nodes and fails clearly without it") {
  TempDir dir;
  const CountedRun run = counted_run(dir, 16, "hierarchical", "4096", 1, 0);
  CHECK(run.report.at("sizes")[0].at("wrong") == 0);
  // Node leaders 0 and 8: each sends the other 2(2-1) ring messages of half the buffer, and 3
  // binomial-broadcast messages of the whole buffer inside its node of 8.
  CHECK(run.report.at("sizes")[0].at("traffic").at("max_rank_sent_bytes") == 2 * 2048 + 3 * 4096);

  const std::string rank_library = (std::filesystem::path(RINGSIM_BINARY).parent_path() / "ringsim-rank-smpi.so").string();
  const auto without = run_shell("smpirun -np 16 -platform " + (dir.path() / "platform.xml").string() + " -hostfile " +
                                     (dir.path() / "hostfile").string() +
                                     " -no-privatize --log=root.thresh:warning " + rank_library +
                                     " --algorithm hierarchical --sizes 4096 --out " + (dir.path() / "r.json").string(),
                                 dir.path());
  // SMPI's smpirun exits 0 after MPI_Abort: the missing report is what the launcher sees.
  CHECK_FALSE(std::filesystem::exists(dir.path() / "r.json"));
  CHECK(without.err.find("ringsim-rank: hierarchical needs --nodes (the node of every rank)") != std::string::npos);
}

TEST_CASE("a long case prints its progress on stderr, and --quiet prints none") {
  TempDir dir;
  // 64 ranks x 50 calls of a 1 KiB ring: about 400,000 messages, 2-3 s; progress is relayed
  // after RINGSIM_PROGRESS_AFTER seconds (3 by default, 0 here) and rank 0 writes it every second.
  const auto topology = dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "n", "count": 8, "gpus": 8}]}]})");
  const auto scenario = dir.write("scenario.json", R"({"name": "long", "topology": ")" + topology.string() +
                                                       R"(", "placements": ["8-8-8-8-8-8-8-8"], "algorithms": ["ring"],
      "sizes": ["1KiB"], "iterations": 49, "warmup": 1})");
  const auto loud = run_shell("RINGSIM_PROGRESS_AFTER=0 " + std::string(RINGSIM_BINARY) + " run " + scenario.string() +
                                  " --json " + (dir.path() / "loud.json").string(),
                              dir.path());
  REQUIRE_MESSAGE(loud.exit_code == 0, loud.err);
  // Each progress line: "[running N s] 8-8-8-8-8-8-8-8 block ring: call K of 50 (1KiB, size 1 of 1),
  // step S[ of 126], simulated T s[, R steps/s]". Parsed by hand: GCC 12 warns inside <regex> at -O2.
  int lines = 0;
  std::istringstream err_lines(loud.err);
  for (std::string line; std::getline(err_lines, line);) {
    if (line.rfind("[running ", 0) != 0) continue;
    const std::string head = "] 8-8-8-8-8-8-8-8 block ring: call ";
    const std::size_t at = line.find(head);
    REQUIRE_MESSAGE(at != std::string::npos, line);
    const std::string rest = line.substr(at + head.size());
    const int call = std::stoi(rest);
    CHECK_MESSAGE(rest.find(" of 50 (1KiB, size 1 of 1), step ") != std::string::npos, line);
    CHECK_MESSAGE(rest.find(", simulated ") != std::string::npos, line);
    ++lines;
    CHECK(call >= 1);
    CHECK(call <= 50);
  }
  CAPTURE(loud.err);
  CHECK(lines >= 1);

  const auto quiet = run_shell("RINGSIM_PROGRESS_AFTER=0 " + std::string(RINGSIM_BINARY) + " run " + scenario.string() +
                                   " --quiet --json " + (dir.path() / "quiet.json").string(),
                               dir.path());
  REQUIRE_MESSAGE(quiet.exit_code == 0, quiet.err);
  CHECK(quiet.err == "");
  // Progress is read from a clock outside MPI: the simulated times are the same with it relayed or not.
  CHECK(read_text(dir.path() / "loud.json") == read_text(dir.path() / "quiet.json"));
}

TEST_CASE("RINGSIM_PROGRESS_AFTER that is not a number of seconds is bad input") {
  TempDir dir;
  const auto run = run_shell("RINGSIM_PROGRESS_AFTER=soon " + std::string(RINGSIM_BINARY) + " run " +
                                 RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json --quiet",
                             dir.path());
  CHECK(run.exit_code == 2);
  CHECK(run.err == "ringsim: RINGSIM_PROGRESS_AFTER=soon: expected a number of seconds >= 0\n");
}
