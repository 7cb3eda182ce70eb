#include "../../sim/common/input_error.h"
#include "../../sim/validate/measured_cases.h"
#include "../../sim/validate/run_placement.h"
#include "../../sim/validate/trace_readers.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace ringsim;
using ringsim::testing::TempDir;

namespace {

const std::string kFixtures = RINGSIM_SOURCE_DIR "/tests/fixtures/traces/";

std::string text_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kPublic = RINGSIM_SOURCE_DIR "/validate/traces/nccl/";

std::string placement_label(const MeasuredTrace& trace) {
  REQUIRE(trace.run);
  const RunPlacement placement = placement_of_run(*trace.run);
  REQUIRE_MESSAGE(placement.placement, placement.why_not);
  return placement.placement->label();
}

// A minimal all_reduce_perf output whose header lists RANK_LINES (each "R HOST DEVICE").
std::string output_with(const std::vector<std::string>& rank_lines, const std::string& extra = "") {
  std::string text = "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
                     "#\n# Using devices\n";
  for (const auto& line : rank_lines) {
    std::istringstream in(line);
    std::string rank, host, device;
    in >> rank >> host >> device;
    text += "#  Rank  " + rank + " Group  0 Pid  100 on " + host + " device  " + device + " [0x07] NVIDIA A100-SXM4-40GB\n";
  }
  return text + extra +
         "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
         "     1048576        262144     float     sum      -1   2198.4    0.48    0.83      0   2190.7    0.48    0.84      0\n";
}

double time_at(const MeasuredTrace& trace, std::uint64_t bytes) {
  for (const auto& point : trace.points)
    if (point.bytes == bytes) return point.time_s;
  return -1;
}

}  // namespace

TEST_CASE("nccl-tests tables of both layouts are read by their header and INFO lines are skipped") {
  const auto fresh = read_trace(kFixtures + "nccl-tests-new.txt", std::nullopt);
  CHECK(fresh.format == "nccl-tests");
  CHECK(fresh.ranks == 8);
  REQUIRE(fresh.points.size() == 4);
  CHECK(time_at(fresh, 16u << 20) == doctest::Approx(27380e-6));  // out-of-place, not in-place
  const auto old = read_trace(kFixtures + "nccl-tests-old.txt", std::nullopt);
  CHECK(old.format == "nccl-tests");
  CHECK(old.ranks == 8);
  CHECK(time_at(old, 64u << 20) == doctest::Approx(107530e-6));
}

TEST_CASE("OSU tables use Max Latency when printed and Avg Latency otherwise") {
  const auto plain = read_trace(kFixtures + "osu.txt", std::nullopt);
  CHECK(plain.format == "osu");
  CHECK_FALSE(plain.ranks);
  CHECK(time_at(plain, 1u << 20) == doctest::Approx(2168.55e-6));
  const auto full = read_trace(kFixtures + "osu-full.txt", std::nullopt);
  CHECK(time_at(full, 1u << 20) == doctest::Approx(2181.95e-6));
  CHECK(full.time_meaning.find("Max Latency") == 0);
}

TEST_CASE("IMB Allreduce sections are read per process count and other benchmarks are skipped") {
  const auto imb = read_trace(kFixtures + "imb.txt", std::nullopt);
  CHECK(imb.format == "imb");
  CHECK_FALSE(imb.ranks);  // two process counts
  REQUIRE(imb.points.size() == 3 + 5);
  int at_eight = 0;
  for (const auto& point : imb.points) at_eight += point.ranks == 8 ? 1 : 0;
  CHECK(at_eight == 5);
  CHECK(imb.points.back().time_s == doctest::Approx(108120.66e-6));  // t_max
  CHECK(imb.points.back().bytes == 64u << 20);
}

TEST_CASE("Horovod timelines give each ALLREDUCE its bytes and duration whether closed or not") {
  for (const char* name : {"horovod-timeline.json", "horovod-timeline-unclosed.json"}) {
    CAPTURE(name);
    const auto timeline = read_trace(kFixtures + name, std::nullopt);
    CHECK(timeline.format == "horovod-timeline");
    CHECK(timeline.ranks == 8);
    REQUIRE(timeline.points.size() == 4);
    CHECK(timeline.points[0].bytes == 512u * 512 * 4);
    CHECK(timeline.points[0].time_s == doctest::Approx(2198e-6));
    CHECK(timeline.points[2].bytes == 16u << 20);
  }
}

TEST_CASE("ringsim results are read with their placements") {
  const auto trace = read_trace(RINGSIM_SOURCE_DIR "/validate/traces/emulated/locality-200M.json", std::nullopt);
  CHECK(trace.format == "ringsim");
  REQUIRE(trace.points.size() == 16);
  CHECK(trace.points[3].placement == "4-2-2");
  CHECK(trace.points[3].order == "block");
  CHECK(trace.points[3].ranks == 8);
}

TEST_CASE("truncated and garbage traces are rejected with the file and line") {
  TempDir dir;
  auto expect_error = [&](const std::string& name, const std::string& text, const std::string& part) {
    const auto file = dir.write(name, text);
    CAPTURE(name);
    const std::string error = RINGSIM_ERROR_OF(read_trace(file, std::nullopt));
    CHECK_MESSAGE(error.find(part) != std::string::npos, error);
  };
  const std::string nccl = text_of(kFixtures + "nccl-tests-new.txt");
  expect_error("nccl.txt", nccl.substr(0, nccl.find("108250") + 3), "nccl.txt:23: 6 columns where the header (line 17) has 13");
  const std::string imb = text_of(kFixtures + "imb.txt");
  expect_error("imb.txt", imb.substr(0, imb.find("105900.02") + 4), "imb.txt:47: 3 columns where the #bytes header has 5");
  const std::string osu = text_of(kFixtures + "osu-full.txt");
  expect_error("osu.txt", osu.substr(0, osu.find("106200.11")), "osu.txt:8: expected 5 columns");
  const std::string timeline = text_of(kFixtures + "horovod-timeline.json");
  expect_error("hvd.json", timeline.substr(0, timeline.size() / 2), "hvd.json:");
  expect_error("garbage.bin", std::string("\x7f" "ELF\x02\x01\x01 not a trace at all", 26), "not a trace format ringsim knows");
  expect_error("empty.txt", "", "not a trace format ringsim knows");
  const auto forced = dir.write("words.txt", "hello\nworld\n");
  CHECK(RINGSIM_ERROR_OF(read_trace(forced, std::string("osu"))).find("words.txt:1: no \"# Size  Avg Latency(us)\" header") != std::string::npos);
  CHECK(RINGSIM_ERROR_OF(read_trace(forced, std::string("nccl"))).find("unknown trace format \"nccl\"") == 0);
}

TEST_CASE("a Horovod event of the wrong type or out of range is one error naming the event's JSON path") {
  const std::string head = text_of(kFixtures + "horovod-timeline-unclosed.json");
  const std::string events = head.substr(0, head.find("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2"));
  auto error_of = [&](const std::string& last_event) {
    return RINGSIM_ERROR_OF(read_horovod_timeline(events + last_event, "h.json"));
  };
  // Horovod leaves the array open; the last event is what the fuzzer changed.
  CHECK(error_of(R"({"ph": "E", "ts": 3428, "pid": {"dtype": "float32", "shape": "[1024, 1024]"}})") ==
        "h.json: /18/pid: expected an integer from 0 to 2147483647, found an object");
  CHECK(error_of(R"({"ph": "B", "name": "ALLREDUCE", "ts": 5.55556e+128, "pid": 1},)") ==
        "h.json: /18/ts: expected a number from 0 to 1e+15, found 5.55556e+128");
  CHECK(error_of(R"({"ph": "B", "name": "ALLREDUCE", "ts": 3398, "pid": 2}, {"ph": "E", "ts": 3000, "pid": 2})") ==
        "h.json: /19/ts: the \"E\" event ends at 3000 us, before its \"B\" at 3398 us");
  CHECK(error_of(R"({"ph": "X", "name": "99999999999999999999", "ts": 3000, "pid": 1})").empty());  // not a rank: skipped
  CHECK(error_of(R"({"ph": "B", "name": "ALLREDUCE", "ts": 3400, "pid": 2}, {"ph": "E", "ts": 3500, "pid": 2,
                   "args": {"dtype": "float64", "shape": "[99999999, 99999999]"}})") ==
        "h.json: /19/args: a tensor of over 1125899906842624 bytes");
}

TEST_CASE("every prefix of every fixture reads or fails with an input error and never crashes") {
  TempDir dir;
  for (const std::string& name : {kFixtures + "nccl-tests-new.txt", kFixtures + "nccl-tests-old.txt", kFixtures + "osu.txt",
                                  kFixtures + "osu-full.txt", kFixtures + "imb.txt", kFixtures + "horovod-timeline.json",
                                  kPublic + "hkbu-10g-8x4-auto-run1.txt"}) {
    const std::string text = text_of(name);
    for (std::size_t length = 0; length < text.size(); length += 23) {
      const auto file = dir.write("prefix", text.substr(0, length));
      try {
        (void)read_trace(file, std::nullopt);
      } catch (const InputError&) {
      } catch (const std::exception& e) {
        FAIL_CHECK(name << " cut at " << length << ": " << e.what());
      }
    }
  }
}

TEST_CASE("the nccl-tests header gives every rank's host and device, in both layouts") {
  for (const char* name : {"nccl-tests-new.txt", "nccl-tests-old.txt"}) {
    CAPTURE(name);
    const auto trace = read_trace(kFixtures + name, std::nullopt);
    REQUIRE(trace.run);
    REQUIRE(trace.run->ranks.size() == 8);
    CHECK(trace.run->ranks[5].rank == 5);
    CHECK(trace.run->ranks[5].host == "node1");
    CHECK(trace.run->ranks[5].device == 1);
    CHECK(trace.run->hosts() == std::vector<std::string>{"node0", "node1", "node2"});
    CHECK_FALSE(trace.run->library_version);  // these fixtures print no "NCCL version" line
    CHECK(placement_label(trace) == "4-2-2 block");
  }
}

TEST_CASE("the public nccl-tests fixtures give NCCL's version, their ranks and their placement") {
  const auto eight_by_four = read_trace(kPublic + "hkbu-10g-8x4-auto-run1.txt", std::nullopt);
  REQUIRE(eight_by_four.run);
  CHECK(eight_by_four.run->library_version == "2.6.4");
  CHECK(eight_by_four.ranks == 32);
  CHECK(eight_by_four.run->ranks[12].host == "gpu4");
  CHECK(eight_by_four.run->ranks[14].device == 2);
  CHECK(eight_by_four.run->ranks[14].gpu == "GeForce RTX 2080 Ti");  // after the bus id
  CHECK(placement_label(eight_by_four) == "4-4-4-4-4-4-4-4 block");
  CHECK(eight_by_four.points.size() == 9);
  CHECK(eight_by_four.summary().find("32 ranks on 8 hosts, NCCL 2.6.4") != std::string::npos);

  const auto sixteen = read_trace(kPublic + "hkbu-10g-16x1-auto.txt", std::nullopt);
  REQUIRE(sixteen.run);
  CHECK(sixteen.run->library_version == "2.4.7");
  CHECK(sixteen.run->hosts().size() == 16);
  CHECK(sixteen.run->hosts().front() == "gpu9");  // host order is rank order, not name order
  CHECK(placement_label(sixteen) == "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1 block");
  CHECK(sixteen.points.size() == 268);

  const auto infiniband = read_trace(kPublic + "hkbu-100gib-8x4-auto.txt", std::nullopt);
  CHECK(infiniband.run->library_version == "2.6.4");
  CHECK(infiniband.points.front().bytes == 4);
  CHECK(infiniband.points.size() == 28);
}

TEST_CASE("NCCL's version is read from its own line or from nccl-tests' library code") {
  TempDir dir;
  const auto info = dir.write("info.txt", output_with({"0 a 0", "1 b 0"}, "a:1:1 [0] NCCL INFO NCCL version 2.23.4+cuda12.1\n"));
  CHECK(read_trace(info, std::nullopt).run->library_version == "2.23.4");
  const auto coded = dir.write("coded.txt", "# nccl-tests version 2.18.3 nccl-headers=23003 nccl-library=23003\n" +
                                                output_with({"0 a 0", "1 b 0"}));
  CHECK(read_trace(coded, std::nullopt).run->library_version == "2.30.3");
  const auto old_code = dir.write("old.txt", "# nccl-tests version 2.0.0 nccl-headers=2708 nccl-library=2708\n" +
                                                 output_with({"0 a 0", "1 b 0"}));
  CHECK(read_trace(old_code, std::nullopt).run->library_version == "2.7.8");
}

TEST_CASE("ranks dealt round-robin over hosts are a cyclic placement and other orders have none") {
  TempDir dir;
  const auto cyclic = read_trace(dir.write("cyclic.txt", output_with({"0 a 0", "1 b 0", "2 c 0", "3 a 1", "4 b 1", "5 a 2"})),
                                 std::nullopt);
  CHECK(placement_label(cyclic) == "3-2-1 cyclic");
  const auto odd = read_trace(dir.write("odd.txt", output_with({"0 a 0", "1 a 1", "2 b 0", "3 a 2"})), std::nullopt);
  const RunPlacement none = placement_of_run(*odd.run);
  CHECK_FALSE(none.placement);
  CHECK(none.why_not == "rank 3 runs on a again after rank 2 on b: the ranks follow neither block nor cyclic order");
  CHECK(none.line == 7);
  CHECK(none.describe() == "no placement: 4 ranks on 2 hosts (a, b, in order of first appearance)");
}

TEST_CASE("a bad nccl-tests header is one error naming the file and line") {
  TempDir dir;
  auto expect_error = [&](const std::string& text, const std::string& part) {
    const auto file = dir.write("bad.txt", text);
    const std::string error = RINGSIM_ERROR_OF(read_trace(file, std::nullopt));
    CHECK_MESSAGE(error.find(part) == 0, error);
    CHECK(error.find('\n') == std::string::npos);
  };
  const std::string bad = (dir.path() / "bad.txt").string();
  expect_error(output_with({"0 a 0", "1 a 1", "1 b 0"}), bad + ":6: rank 1 is listed twice (also on line 5)");
  expect_error(output_with({"0 a 0", "2 a 1", "3 b 0"}), bad + ":4: the header lists 3 ranks but not rank 1 (ranks are numbered 0 to 2)");
  std::string garbled = output_with({"0 a 0", "1 a 1"});
  garbled.replace(garbled.find(" on a device  1"), 15, " on a");
  expect_error(garbled, bad + ":5: expected \"#  Rank  R ... on HOST device D ...\"");
  std::string two_gpus = output_with({"0 a 0", "1 a 1", "2 b 0"});
  two_gpus.replace(two_gpus.find("nGpus 1"), 7, "nGpus 2");
  expect_error(two_gpus, bad + ":1: 3 ranks listed (lines 4 to 6) is not a multiple of nThread x nGpus = 2");
  expect_error(output_with({"0 a 0", "1 b 0"}, "a:1:2 [0] NCCL INFO comm 0x55d0c8 rank 0 nranks 4 cudaDev 0 busId 7000 - Init COMPLETE\n"),
               bad + ":6: NCCL reports nranks 4 but the header lists 2 ranks (lines 4 to 5)");
}

namespace {

// An all_gather_perf run of two ranks (its rows without a reduction), the piece of the suite logs below.
std::string gather_run() {
  std::string gather = output_with({"0 a 0", "1 b 0"});
  gather.replace(gather.find("float     sum"), 13, "float    none");
  return gather;
}

}  // namespace

TEST_CASE("a log of the whole nccl-tests suite gives its all_reduce_perf run, --collective another, and one ringsim does not run is refused") {
  TempDir dir;
  const std::string gather = gather_run();
  const std::string reduce = output_with({"0 a 0", "1 b 0"});
  const auto suite = dir.write("suite.txt", "# Collective test starting: all_gather_perf\n" + gather +
                                                "# Collective test starting: all_reduce_perf\n" + reduce);
  const auto trace = read_trace(suite, std::nullopt);
  CHECK(trace.ranks == 2);
  CHECK(trace.points.size() == 1);
  CHECK(trace.section == "all_reduce_perf (lines 10 to 16; the log holds 2 runs: all_gather_perf, all_reduce_perf)");
  // Another collective's run is read as that collective, to be compared with a simulation of it.
  const auto all_gather = read_trace(suite, std::nullopt, std::string("all_gather"));
  CHECK(all_gather.collective == Collective::all_gather);
  CHECK(all_gather.points.front().line == 8);
  CHECK(trace.collective == Collective::all_reduce);
  CHECK(RINGSIM_ERROR_OF(read_trace(suite, std::nullopt, std::string("hypercube_perf"))) ==
        suite.string() + ": --collective hypercube_perf: ringsim simulates all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                         "broadcast_perf, reduce_perf, alltoall_perf and sendrecv_perf; it cannot compare another");
  CHECK(read_trace(suite, std::nullopt, std::string("all_reduce_perf_mpi")).points.front().line == 16);
  // Not named: the command line before each run names it, else the columns tell an allreduce.
  const auto commands = dir.write("commands.txt", "$ mpirun -np 2 ./build/all_gather_perf -b 1M\n" + gather +
                                                      "$ mpirun -np 2 ./build/all_reduce_perf -b 1M\n" + reduce);
  CHECK(read_trace(commands, std::nullopt).points.front().line == 16);
  const auto unnamed = dir.write("unnamed.txt", gather + reduce);
  CHECK(read_trace(unnamed, std::nullopt).points.front().line == 14);
  const std::string file = (dir.path() / "twice.txt").string();
  dir.write("twice.txt", reduce + reduce);
  CHECK(RINGSIM_ERROR_OF(read_trace(file, std::nullopt)) ==
        file + ":1: 2 runs of all_reduce_perf in this log (lines 1, 8): keep the one to validate in its own file");
  const auto gather_only = dir.write("gather.txt", "# Collective test starting: all_gather_perf\n" + gather);
  CHECK(RINGSIM_ERROR_OF(read_trace(gather_only, std::nullopt)) ==
        gather_only.string() + ":2: this log is a run of all_gather_perf, not of all_reduce_perf: give --collective "
                               "all_gather_perf to compare it");
}

TEST_CASE("a suite log's programs are listed in log order, each once, for validate to compare one after the other") {
  TempDir dir;
  const std::string gather = gather_run(), reduce = output_with({"0 a 0", "1 b 0"});
  const auto suite = dir.write("suite.txt", "# Collective test starting: all_gather_perf\n" + gather + "# Collective test starting: "
                                            "hypercube_perf\n" + gather + "# Collective test starting: all_reduce_perf\n" + reduce);
  CHECK(suite_programs(suite, std::nullopt) == std::vector<std::string>{"all_gather_perf", "hypercube_perf", "all_reduce_perf"});
  CHECK(suite_programs(suite, std::string("nccl-tests")).size() == 3);
  // An unnamed run whose rows read as an all-reduce's is all_reduce_perf; another unnamed run is left out.
  CHECK(suite_programs(dir.write("unnamed.txt", gather + reduce), std::nullopt) == std::vector<std::string>{"all_reduce_perf"});
  // A program named twice (all_reduce_perf_mpi is all_reduce_perf's collective) is listed once.
  const auto twice = dir.write("twice.txt", "# Collective test starting: all_reduce_perf\n" + reduce +
                                                "# Collective test starting: all_reduce_perf_mpi\n" + reduce);
  CHECK(suite_programs(twice, std::nullopt) == std::vector<std::string>{"all_reduce_perf"});
  CHECK(suite_programs(dir.write("one.txt", reduce), std::nullopt) == std::vector<std::string>{"all_reduce_perf"});
  CHECK(suite_programs(RINGSIM_SOURCE_DIR "/tests/fixtures/traces/osu.txt", std::nullopt).empty());
  CHECK(nccl_tests_collective("./build/alltoall_perf_mpi") == Collective::alltoall);
  CHECK(nccl_tests_collective("hypercube_perf") == std::nullopt);
}

TEST_CASE("a result row cut by NCCL log lines printed in its middle is joined again") {
  TempDir dir;
  const std::string whole = output_with({"0 gcn151 0", "1 gcn152 0"});
  // Cut inside the root column ("-1"), as another thread's INFO lines land in the row.
  std::string cut = whole;
  cut.replace(cut.find("-1   2198.4"), 2,
              "-gcn151:1904979:1905073 [0] NCCL INFO Channel 00/02 :    0   1\n"
              "gcn151:1904979:1905073 [0] NCCL INFO Ring 00 : 1[0] -> 0[0] [receive] via NET/IB/2/GDRDMA\n"
              "gcn152:22:23 [0] NCCL INFO Channel 01/02 : 0[0] -> 1[0] [send] via NET/Socket/0\n1");
  const auto trace = read_trace(dir.write("cut.txt", cut), std::nullopt);
  REQUIRE(trace.points.size() == 1);
  CHECK(trace.points.front().time_s == doctest::Approx(2198.4e-6));
  CHECK(trace.points.front().line == 7);
  REQUIRE(trace.run->nccl);
  const NcclRunFacts& facts = *trace.run->nccl;
  CHECK(facts.channels == 2);
  CHECK(facts.rings.at(0) == std::vector<int>{0, 1});
  REQUIRE(facts.network_hops.size() == 2);
  CHECK(facts.network_hops[0].transport == "IB");
  CHECK(facts.network_hops[0].device == 2);
  CHECK(facts.network_hops[0].gdr);
  CHECK_FALSE(facts.network_hops[0].send);
  CHECK(facts.network_hops[1].transport == "Socket");
  CHECK_FALSE(facts.network_hops[1].gdr);
  // A row cut and never finished is still a truncated row.
  const std::string unfinished = whole.substr(0, whole.find("-1   2198.4") + 2) + "gcn151:1:2 [0] NCCL INFO Connected all rings\n";
  const std::string file = (dir.path() / "unfinished.txt").string();
  dir.write("unfinished.txt", unfinished);
  CHECK(RINGSIM_ERROR_OF(read_trace(file, std::nullopt)) ==
        file + ":7: 5 columns where the header (line 6) has 13: truncated or not nccl-tests output");
}

TEST_CASE("copies pasted into documents read: launcher prefixes, Markdown fences, a Rank line without '#'") {
  TempDir dir;
  std::string pasted = "```\n";
  std::istringstream lines(output_with({"0 a 0", "1 b 0"}));
  for (std::string line; std::getline(lines, line);) pasted += "[1,0]<stdout>:" + line + "\n";
  pasted += "```\n";
  const auto tagged = read_trace(dir.write("tagged.md", pasted), std::nullopt);
  CHECK(tagged.ranks == 2);
  CHECK(tagged.points.size() == 1);
  std::string lost = output_with({"0 a 0", "1 b 0"});
  lost.erase(lost.find("#  Rank  0"), 1);
  const auto markdown = read_trace(dir.write("lost.md", "    " + lost), std::nullopt);
  CHECK(markdown.ranks == 2);
  CHECK(placement_label(markdown) == "1-1 block");
  std::string labelled;
  std::istringstream srun(output_with({"0 a 0", "1 b 0"}));
  for (std::string line; std::getline(srun, line);) labelled += "0: " + line + "\n";
  CHECK(read_trace(dir.write("srun.txt", labelled), std::nullopt).ranks == 2);
}

TEST_CASE("NCCL's settings forced by the environment are read, as NCCL spells them") {
  TempDir dir;
  const auto echoed = read_trace(dir.write("echo.txt", output_with({"0 a 0", "1 b 0"},
                                                                     "a:1:1 [0] NCCL INFO NCCL_ALGO set by environment to RING\n"
                                                                     "a:1:1 [0] NCCL INFO NCCL_PROTO set by environment to simple\n"
                                                                     "a:1:1 [0] NCCL INFO NCCL_MIN_NCHANNELS set by environment to 4.\n")),
                                 std::nullopt);
  REQUIRE(echoed.run->nccl);
  CHECK(echoed.run->nccl->algorithm == "Ring");
  CHECK(echoed.run->nccl->protocol == "Simple");
  CHECK(echoed.run->nccl->min_channels == 4);
  const auto command = read_trace(dir.write("command.txt", "mpirun -x NCCL_PROTO=LL128 -x NCCL_ALGO=Tree all_reduce_perf\n" +
                                                               output_with({"0 a 0", "1 b 0"})),
                                  std::nullopt);
  CHECK(command.run->nccl->algorithm == "Tree");
  CHECK(command.run->nccl->protocol == "LL128");
  const auto list = read_trace(dir.write("list.txt", "NCCL_PROTO=^LL128 ./all_reduce_perf\n" + output_with({"0 a 0", "1 b 0"})),
                               std::nullopt);
  CHECK_FALSE(list.run->nccl->protocol);  // a list of protocols is not one protocol
}

TEST_CASE("NCCL 2.4's bootstrap interface list (NET/Socket) gives way to the network's NICs listed after it") {
  TempDir dir;
  const auto nccl_facts_of = [&](const std::string& name, const std::string& info) {
    return *read_trace(dir.write(name, output_with({"0 a 0", "1 b 0"}, info)), std::nullopt).run->nccl;
  };
  const NcclRunFacts both = nccl_facts_of("both.txt", "a:1:1 [0] NCCL INFO NET/Socket : Using [0]ib0:10.0.0.19<0>\n"
                                                      "a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.19<0>\n"
                                                      "b:2:2 [0] NCCL INFO NET/Socket : Using [0]ib0:10.0.0.20<0>\n");
  CHECK(both.nics == std::vector<std::string>{"mlx5_0", "mlx5_1"});
  CHECK(both.network == "IB");
  const NcclRunFacts sockets = nccl_facts_of("sockets.txt", "a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n");
  CHECK(sockets.nics == std::vector<std::string>{"eth0"});
  CHECK(sockets.network == "Socket");
}

TEST_CASE("a launcher tag flushed into a host name (node-[1,0]<stdout>:00000C) still gives the run's placement") {
  // Two ranks' output interleaved mid-line: mpirun --tag-output put the next chunk's tag inside the
  // host name of Azure-style hosts (node-00000B, node-00000C).
  TempDir dir;
  std::string tagged;
  std::istringstream lines(output_with({"0 node-00000B 0", "1 node-00000B 1", "2 node-00000C 0", "3 node-00000C 1"}));
  for (std::string line; std::getline(lines, line);) tagged += "[1,0]<stdout>:" + line + "\n";
  tagged.replace(tagged.find("node-00000C"), 11, "node-[1,0]<stdout>:00000C");
  const auto trace = read_trace(dir.write("interleaved.txt", tagged), std::nullopt);
  REQUIRE(trace.run);
  CHECK(trace.run->hosts() == std::vector<std::string>{"node-00000B", "node-00000C"});
  CHECK(placement_label(trace) == "2-2 block");
}

TEST_CASE("a one-GPU run (a local copy) is refused with one line, not simulated as a send of nothing") {
  TempDir dir;
  const std::string file = dir.write("one.txt", output_with({"0 a 0"})).string();
  const auto trace = read_trace(file, std::nullopt);
  Scenario scenario;
  scenario.file = "s.json";
  CHECK(RINGSIM_ERROR_OF(group_trace(trace, scenario, file, std::nullopt)) ==
        file + ":4: a run of one rank (1 block): its allreduce is a local copy inside one GPU, which ringsim does not "
               "simulate; validate runs of 2 ranks or more");
}
