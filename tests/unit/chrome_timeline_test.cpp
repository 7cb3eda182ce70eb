// Events file -> Chrome trace: processes per case and size, threads per rank, one slice per step.
#include "../../sim/results/chrome_timeline.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;
using namespace ringsim::testing;

namespace {

// Two ranks, one step each of scatter-reduce and allgather, as rank_main.cpp writes them.
const std::string kTwoRanks =
    R"({"bytes": 1024, "fields": ["rank","phase","step","chunk","peer","bytes","start_s","end_s"], )"
    R"("values": [0,0,0,1,1,512,0.001,0.002, 0,1,0,0,1,512,0.002,0.003, )"
    R"(1,0,0,0,0,512,0.001,0.0025, 1,1,0,1,0,512,0.0025,0.003]})"
    "\n";

std::vector<nlohmann::json> events_of(const nlohmann::json& trace, const std::string& ph) {
  std::vector<nlohmann::json> found;
  for (const auto& event : trace.at("traceEvents"))
    if (event.at("ph") == ph) found.push_back(event);
  return found;
}

}  // namespace

TEST_CASE("timeline: one slice per step with phase step chunk bytes and peer in microseconds") {
  const auto sizes = parse_events_lines(kTwoRanks, "events.jsonl");
  REQUIRE(sizes.size() == 1);
  CHECK(sizes[0].phase_names == default_phase_names());
  const auto trace = chrome_timeline("demo", {{"2", "block", "ring", 2, sizes}});
  const auto slices = events_of(trace, "X");
  REQUIRE(slices.size() == 4);
  const auto& first = slices[0];
  CHECK(first.at("pid") == 1);
  CHECK(first.at("tid") == 0);
  CHECK(first.at("name") == "scatter_reduce 0");
  CHECK(first.at("ts").get<double>() == doctest::Approx(1000));
  CHECK(first.at("dur").get<double>() == doctest::Approx(1000));
  CHECK(first.at("args") == nlohmann::json{{"phase", "scatter_reduce"}, {"step", 0}, {"chunk", 1}, {"bytes", 512}, {"peer", 1}});
  CHECK(slices[1].at("args").at("phase") == "allgather");
  CHECK(slices[2].at("tid") == 1);
}

TEST_CASE("timeline: every case x size is a named process and every rank a named thread") {
  auto sizes = parse_events_lines(kTwoRanks + kTwoRanks, "events.jsonl");
  sizes[1].bytes = 4 << 20;
  const auto trace = chrome_timeline("demo", {{"2", "block", "ring", 2, sizes}, {"1-1", "cyclic", "ring", 2, {sizes[0]}}});
  std::vector<std::string> processes, threads;
  for (const auto& event : events_of(trace, "M")) {
    if (event.at("name") == "process_name") processes.push_back(event.at("args").at("name"));
    if (event.at("name") == "thread_name") threads.push_back(event.at("args").at("name"));
  }
  CHECK(processes == std::vector<std::string>{"2 block ring, 1KiB (2 ranks)", "2 block ring, 4MiB (2 ranks)",
                                              "1-1 cyclic ring, 1KiB (2 ranks)"});
  CHECK(threads.size() == 6);
  CHECK(threads[1] == "rank 1");
  CHECK(events_of(trace, "X").back().at("pid") == 3);
  CHECK(trace.at("displayTimeUnit") == "ms");
}

TEST_CASE("timeline: phase names come from the events line when it has them") {
  const std::string line =
      R"({"bytes": 8, "phase_names": ["reduce", "broadcast"], "fields": ["rank","phase","step","chunk","peer","bytes","start_s","end_s"], )"
      R"("values": [0,1,2,0,1,8,0,1e-6]})";
  const auto trace = chrome_timeline("demo", {{"2", "block", "tree", 2, parse_events_lines(line, "e")}});
  CHECK(events_of(trace, "X").at(0).at("name") == "broadcast 2");
  CHECK(events_of(trace, "X").at(0).at("cat") == "broadcast");
}

TEST_CASE("timeline: a malformed events line is an error naming file and line") {
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(kTwoRanks + "{oops\n", "case/events.jsonl")).starts_with("case/events.jsonl:2: not JSON"));
  const std::string short_values = R"({"bytes": 8, "fields": ["rank","phase","step","chunk","peer","bytes","start_s","end_s"], "values": [1,2,3]})";
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(short_values, "e")).find("not a multiple of 8") != std::string::npos);
  const std::string unnamed_phase = R"({"bytes": 8, "fields": ["rank","phase","step","chunk","peer","bytes","start_s","end_s"], "values": [0,5,0,0,0,8,0,1]})";
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(unnamed_phase, "e")).find("phase 5 has no name") != std::string::npos);
}

TEST_CASE("timeline: an events value that is not a whole number in its field's range is an error with its path") {
  const auto line = [](const std::string& values) {
    return R"({"bytes": 8, "fields": ["rank","phase","step","chunk","peer","bytes","start_s","end_s"], "values": [)" + values + "]}";
  };
  // Casting these to int or std::uint64_t would be undefined behaviour.
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(line("0,0,0,6.5e37,1,8,0,1"), "e")) ==
        "e:1: /values/3: chunk 6.5e+37 is not a whole number from -2147483648 to 2147483647");
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(line("0,0,0.5,0,1,8,0,1"), "e")) ==
        "e:1: /values/2: step 0.5 is not a whole number from -2147483648 to 2147483647");
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(line("0,0,0,0,1,-8,0,1"), "e")).starts_with("e:1: /values/5: bytes -8 is not a whole number from 0 to"));
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(line("0,0,0,0,1,\"8\",0,1"), "e")) == "e:1: /values/5: expected a number, found \"8\"");
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(R"({"bytes": -1, "fields": [], "values": []})", "e")) ==
        "e:1: /bytes: expected a byte count, found -1");
  CHECK(RINGSIM_ERROR_OF(parse_events_lines(R"({"bytes": 1, "values": []})", "e")) == "e:1: /fields: missing required key");
  CHECK(RINGSIM_ERROR_OF(parse_events_lines("[1]\n", "e")) == "e:1: /: not an events line: expected an object, found an array");
  // Whole numbers written as doubles (as rank_main.cpp writes them) are read exactly; peer -1 is "no peer".
  const auto steps = parse_events_lines(line("3.0,1.0,2.0,0.0,-1.0,4294967296.0,0.5,1.5"), "e").at(0).steps;
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].rank == 3);
  CHECK(steps[0].peer == -1);
  CHECK(steps[0].bytes == 4294967296ULL);
}
