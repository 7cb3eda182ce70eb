#include "../../sim/common/input_error.h"
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

TEST_CASE("every prefix of every fixture reads or fails with an input error and never crashes") {
  TempDir dir;
  for (const char* name : {"nccl-tests-new.txt", "nccl-tests-old.txt", "osu.txt", "osu-full.txt", "imb.txt",
                           "horovod-timeline.json"}) {
    const std::string text = text_of(kFixtures + name);
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
