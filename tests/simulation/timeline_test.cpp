// Whole-program: `ringsim run --timeline` writes a Chrome trace of every step, with or without --out,
// and `ringsim report` turns results (and that trace) into a page, or refuses bad input cleanly.
#include "../unit/temp_files.h"
#include "ringsim_process.h"
#include "seed_rack.h"

#include <doctest/doctest.h>

using namespace ringsim::testing;

namespace {

const std::string kReportFixture = RINGSIM_SOURCE_DIR "/tests/fixtures/report/results.json";

std::string two_case_scenario() {
  return R"({"name": "timeline", "topology": ")" + kSeedRack +
         R"(", "placements": ["2-2", {"ranks": "2-1", "order": "cyclic"}], "sizes": ["64KiB", "1MiB"],
             "iterations": 1, "warmup": 0})";
}

}  // namespace

TEST_CASE("run --timeline: a process per case and size and a thread per rank with 2(N-1) slices each") {
  TempDir dir;
  const auto scenario = dir.write("s.json", two_case_scenario());
  const auto timeline = dir.path() / "timeline.json";
  // No --out: the events live in the temporary work directory only.
  const auto run = run_ringsim("run " + scenario.string() + " --quiet --timeline " + timeline.string(), dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto trace = read_json(timeline);
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, int> slices_per_thread;
  for (const auto& event : trace.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "process_name")
      processes[event.at("pid").get<int>()] = event.at("args").at("name");
    if (event.at("ph") == "X") {
      ++slices_per_thread[{event.at("pid").get<int>(), event.at("tid").get<int>()}];
      CHECK(event.at("dur").get<double>() > 0);
      for (const char* key : {"phase", "step", "chunk", "bytes", "peer"}) CHECK(event.at("args").contains(key));
    }
  }
  CHECK(processes == std::map<int, std::string>{{1, "2-2 block ring, 64KiB (4 ranks)"},
                                                {2, "2-2 block ring, 1MiB (4 ranks)"},
                                                {3, "2-1 cyclic ring, 64KiB (3 ranks)"},
                                                {4, "2-1 cyclic ring, 1MiB (3 ranks)"}});
  for (const auto& [thread, slices] : slices_per_thread) CHECK(slices == 2 * ((thread.first <= 2 ? 4 : 3) - 1));
  CHECK(slices_per_thread.size() == 4 + 4 + 3 + 3);
}

TEST_CASE("run --timeline leaves NCCL's ring and tree where they are without it (recording reads a free clock)") {
  // nccl_ring and nccl_tree read the clock only while recording; with MPI_Wtime, whose smpi/wtime sleep
  // the rank then sleeps, --timeline moved these very cases by up to 1% (and a ten-node H100 ring 9%).
  TempDir dir;
  const auto scenario = dir.write("s.json", R"({"name": "observed", "topology": ")" + kSeedRack +
                                                R"(", "placements": ["4-4", "4-3-1"], "algorithms": ["nccl_ring", "nccl_tree"],
                                                  "sizes": ["256KiB", "4MiB"], "iterations": 1, "warmup": 0})");
  const auto plain = dir.path() / "plain.json";
  const auto recorded = dir.path() / "recorded.json";
  const auto first = run_ringsim("run " + scenario.string() + " --quiet --json " + plain.string(), dir.path());
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const auto second = run_ringsim("run " + scenario.string() + " --quiet --json " + recorded.string() + " --timeline " +
                                      (dir.path() / "timeline.json").string(),
                                  dir.path());
  REQUIRE_MESSAGE(second.exit_code == 0, second.err);
  const auto without = read_json(plain).at("results");
  const auto with = read_json(recorded).at("results");
  REQUIRE(without.size() == 8);
  REQUIRE(with.size() == without.size());
  for (std::size_t i = 0; i < without.size(); ++i) {
    CAPTURE(without[i].dump());
    CHECK(with[i].at("engine") == "maestro");
    CHECK(with[i].at("time_s").get<double>() == without[i].at("time_s").get<double>());
  }
}

TEST_CASE("report: a page from the results fixture and for bad input one line with exit 2 and no page") {
  TempDir dir;
  const auto page = dir.path() / "report.html";
  const auto made = run_ringsim("report " + kReportFixture + " -o " + page.string(), dir.path());
  REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  const std::string html = read_text(page);
  CHECK(html.find("<title>ringsim report: report-fixture</title>") != std::string::npos);
  CHECK(html.find("id=\"plot-time-vs-ranks\"") != std::string::npos);
  CHECK(html.size() > 1'000'000);  // Plotly.js is inlined

  const auto scenario = dir.write("scenario.json", two_case_scenario());
  const auto empty = dir.write("empty.json", R"({"kind": "simulated", "results": []})");
  for (const auto& [input, message] : {std::pair{(dir.path() / "missing.json").string(), "missing.json: cannot read"},
                                       std::pair{scenario.string(), "scenario.json: /results: not a ringsim results JSON"},
                                       std::pair{empty.string(), "empty.json: /results: no results to report"}}) {
    const std::string input_file = input;  // clang 14 cannot capture a structured binding
    CAPTURE(input_file);
    const auto bad = run_ringsim("report " + input + " -o " + (dir.path() / "bad.html").string(), dir.path());
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find(message) != std::string::npos);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(dir.path() / "bad.html"));
  }
  const auto no_library =
      run_shell("RINGSIM_PLOTLY_JS=" + (dir.path() / "none.js").string() + " " + RINGSIM_BINARY + " report " +
                    kReportFixture + " -o " + (dir.path() / "bad.html").string(),
                dir.path());
  CHECK(no_library.exit_code == 2);
  CHECK(no_library.err.find("none.js: Plotly.js not found; fetch it with tools/bootstrap.sh") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "bad.html"));
}
