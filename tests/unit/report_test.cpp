// ringsim report's pieces: reading results, choosing what to plot, the ring's chunk movement, the page.
#include "../../sim/report/chunk_movement.h"
#include "../../sim/report/report_page.h"
#include "../../sim/report/topology_separation.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace ringsim;
using namespace ringsim::testing;
using nlohmann::json;

namespace {

json entry(const std::string& algorithm, const std::string& placement, int ranks, std::uint64_t bytes, double time_s) {
  return {{"placement", placement}, {"order", "block"}, {"algorithm", algorithm}, {"ranks", ranks},
          {"bytes", bytes},         {"time_s", time_s}, {"busbw_GBps", 1.0}};
}

// Synthetic results in the schema of docs/results-format.md with traffic counts: ring and a parameter
// server at N = 4 and 8, two sizes.
json two_algorithms() {
  json rows = json::array();
  for (int n : {4, 8})
    for (std::uint64_t bytes : {1u << 20, 16u << 20}) {
      json ring = entry("ring", n == 4 ? "4" : "4-4", n, bytes, 0.001 * n);
      ring["traffic"] = {{"max_rank_sent_bytes", 2 * (n - 1) * bytes / n}, {"max_rank_recv_bytes", 2 * (n - 1) * bytes / n},
                         {"total_bytes", 2 * (n - 1) * bytes}, {"steps", 2 * (n - 1)}};
      ring["closed_form_s"] = 0.0011 * n;
      json server = entry("parameter_server", n == 4 ? "4" : "4-4", n, bytes, 0.002 * n);
      server["traffic"] = {{"max_rank_sent_bytes", (n - 1) * bytes}, {"max_rank_recv_bytes", (n - 1) * bytes},
                           {"total_bytes", 2 * (n - 1) * bytes}, {"steps", 2}};
      rows.push_back(ring);
      rows.push_back(server);
    }
  return {{"kind", "simulated"}, {"scenario", "synthetic"}, {"results", rows}};
}

std::size_t series_count(const ReportSection& section) { return section.figure ? section.figure->at("data").size() : 0; }

}  // namespace

TEST_CASE("report: a file that is not a results JSON is an error naming it") {
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json::array(), "x.json")).starts_with("x.json: /: not a ringsim results JSON"));
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse({{"name", "a scenario"}}, "s.json")).starts_with("s.json: /results: not a ringsim"));
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse({{"results", json::array()}}, "e.json")) ==
        "e.json: /results: no results to report (the array is empty)");
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse({{"results", {{{"placement", "4"}}}}}, "m.json")) ==
        "m.json: /results/0/ranks: missing required key");
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::load("/nonexistent/r.json")).starts_with("/nonexistent/r.json: cannot read"));
}

TEST_CASE("report: results are read with optional traffic and closed form and cost model while unknown keys are ignored") {
  json document = two_algorithms();
  document["results"][0]["cost_model"] = {{"alpha_s", 1e-6}, {"beta_s_per_byte", 8e-10}, {"gamma_s_per_byte", 1e-12}};
  document["results"][0]["something_new"] = 1;
  document["results"][1]["traffic"] = nullptr;
  const auto results = ResultsDocument::parse(document, "r.json");
  REQUIRE(results.rows.size() == 8);
  CHECK(results.rows[0].traffic->max_rank_sent_bytes == 2 * 3 * (1u << 20) / 4);
  CHECK(results.rows[0].closed_form_s == doctest::Approx(0.0044));
  CHECK(results.rows[0].cost_model->beta_s_per_byte == doctest::Approx(8e-10));
  CHECK_FALSE(results.rows[1].traffic);
  CHECK(case_label(results.rows[0]) == "4 block ring (4 ranks)");
}

TEST_CASE("report: entries of scenario variants are series of their own") {
  json document = two_algorithms();
  for (auto& row : document["results"]) row["variant"] = "1 Gbps";
  const json other = two_algorithms();
  for (auto row : other["results"]) {
    row["variant"] = "10 Gbps";
    document["results"].push_back(row);
  }
  const auto results = ResultsDocument::parse(document, "r.json");
  CHECK(case_label(results.rows[0]) == "4 block ring (4 ranks) [1 Gbps]");
  CHECK(series_count(size_sections(results)[0]) == 8);
  const auto by_ranks = scaling_sections(results, 16u << 20);
  CHECK(series_count(by_ranks[0]) == 6);   // points of 2 algorithms x 2 variants, the ring's 2 closed forms
  CHECK(series_count(by_ranks[1]) == 9);   // sent + received x 4, and the reference
  CHECK(by_ranks[0].figure->at("data")[0].at("name") == "ring [1 Gbps] simulated");
}

TEST_CASE("report: plots against N use --size or else the largest size present for every N") {
  json document = two_algorithms();
  document["results"].push_back(entry("ring", "4-4", 8, 64u << 20, 1.0));  // only at N = 8
  const auto results = ResultsDocument::parse(document, "r.json");
  CHECK(scaling_size(results, std::nullopt, "r.json") == (16u << 20));
  CHECK(scaling_size(results, 1u << 20, "r.json") == (1u << 20));
  CHECK(RINGSIM_ERROR_OF(scaling_size(results, 3u << 20, "r.json")) == "r.json: no result has size 3MiB (--size)");
}

TEST_CASE("report: one series per case against size and per algorithm against N with closed form and traffic") {
  const auto results = ResultsDocument::parse(two_algorithms(), "r.json");
  const auto by_size = size_sections(results);
  REQUIRE(by_size.size() == 2);
  CHECK(series_count(by_size[0]) == 4);  // 2 algorithms x 2 placements
  CHECK(series_count(by_size[1]) == 4);
  const auto by_ranks = scaling_sections(results, 16u << 20);
  REQUIRE(by_ranks.size() == 2);
  // ring: points + closed-form line (from closed_form_s); parameter server: points only.
  CHECK(series_count(by_ranks[0]) == 3);
  // sent + received per algorithm, and the 2(N-1)/N reference.
  CHECK(series_count(by_ranks[1]) == 5);
  const auto& ring_sent = by_ranks[1].figure->at("data")[0];
  CHECK(ring_sent.at("name") == "ring sent");
  CHECK(ring_sent.at("y") == json::array({1.5, 1.75}));
  CHECK(by_ranks[1].figure->at("data")[2].at("y") == json::array({3.0, 7.0}));
}

TEST_CASE("report: plots without data are left out with the reason") {
  json document = two_algorithms();
  for (auto& row : document["results"]) row.erase("traffic");
  auto results = ResultsDocument::parse(document, "r.json");
  const auto without_traffic = scaling_sections(results, 1u << 20);
  REQUIRE(without_traffic.size() == 2);
  CHECK_FALSE(without_traffic[1].figure);
  CHECK(without_traffic[1].explanation.find("no per-rank traffic counts") != std::string::npos);

  results = ResultsDocument::parse({{"results", {entry("ring", "4-4", 8, 1u << 20, 0.01)}}}, "one.json");
  const auto one_size = size_sections(results);
  REQUIRE(one_size.size() == 1);
  CHECK_FALSE(one_size[0].figure);
  CHECK(one_size[0].explanation.find("one size (1MiB)") != std::string::npos);
  const auto one_n = scaling_sections(results, 1u << 20);
  REQUIRE(one_n.size() == 1);
  CHECK_FALSE(one_n[0].figure);
  CHECK(one_n[0].explanation.find("N = 8 ranks") != std::string::npos);
}

TEST_CASE("report: the ring schedule reduces one chunk per rank and then spreads it to all") {
  const int n = 4;
  const auto movement = ring_schedule_movement(n);
  REQUIRE(movement.steps.size() == 2 * (n - 1));
  CHECK(movement.last_reduce_step == n - 2);
  CHECK(movement.steps[0].label == "scatter_reduce 0");
  // Scatter-reduce step 0: rank r receives chunk r-1.
  CHECK(movement.steps[0].received_chunk == std::vector<int>{3, 0, 1, 2});
  // After the last scatter-reduce step rank r holds chunk r+1 summed over all N ranks.
  const auto& reduced = movement.steps[static_cast<std::size_t>(movement.last_reduce_step)].contributions;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK((reduced[r][c] == n) == (c == (r + 1) % n));
    }
  // After the allgather every rank holds every chunk complete.
  for (const auto& row : movement.steps.back().contributions) CHECK(row == std::vector<int>(n, n));
}

TEST_CASE("report: the chunk movement read back from a timeline equals the schedule's") {
  const int n = 3;
  const auto schedule = ring_schedule_movement(n);
  // A timeline like `ringsim run --timeline` writes, built from the schedule's steps.
  json events = json::array();
  events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 7},
                    {"args", {{"name", "3 block ring"}, {"algorithm", "ring"}, {"ranks", n}, {"bytes", 1024}}}});
  for (std::size_t s = 0; s < schedule.steps.size(); ++s)
    for (int r = 0; r < n; ++r) {
      const bool reduce = static_cast<int>(s) < n - 1;
      events.push_back({{"ph", "X"}, {"pid", 7}, {"tid", r},
                        {"args", {{"phase", reduce ? "scatter_reduce" : "allgather"},
                                  {"step", reduce ? s : s - (n - 1)},
                                  {"chunk", schedule.steps[s].received_chunk[r]},
                                  {"peer", (r + n - 1) % n},
                                  {"bytes", 100}}}});
    }
  const auto movement = movement_from_timeline({{"traceEvents", events}}, "t.json");
  REQUIRE(movement);
  REQUIRE(movement->steps.size() == schedule.steps.size());
  for (std::size_t s = 0; s < schedule.steps.size(); ++s) {
    CHECK(movement->steps[s].received_chunk == schedule.steps[s].received_chunk);
    CHECK(movement->steps[s].contributions == schedule.steps[s].contributions);
  }
  CHECK(RINGSIM_ERROR_OF(movement_from_timeline(json::object(), "t.json")).starts_with("t.json: /traceEvents: not a timeline"));
  CHECK(RINGSIM_ERROR_OF(movement_from_timeline(json::array(), "t.json")).starts_with("t.json: /: not a timeline"));
}

TEST_CASE("report: every value of a timeline is checked and an error names the file and the JSON path") {
  const auto process = [](json ranks) {
    return json{{"ph", "M"}, {"name", "process_name"}, {"pid", 1},
                {"args", {{"name", "4 block ring"}, {"algorithm", "ring"}, {"ranks", ranks}, {"bytes", 64}}}};
  };
  const auto slice = [](const char* key, json value) {
    json args = {{"phase", "scatter_reduce"}, {"step", 0}, {"chunk", 3}, {"peer", 3}, {"bytes", 16}};
    json event = {{"ph", "X"}, {"pid", 1}, {"tid", 0}, {"args", args}};
    if (std::string(key) == "tid") event["tid"] = value;
    else event["args"][key] = value;
    return event;
  };
  // A vector: a braced list of one json is a copy of it, not an array of one, under clang.
  const auto error = [](const std::vector<json>& events) {
    return RINGSIM_ERROR_OF(movement_from_timeline({{"traceEvents", json(events)}}, "t.json"));
  };
  CHECK(error({process(4), slice("chunk", 2.5)}) ==
        "t.json: /traceEvents/1/args/chunk: expected a chunk of the 4-rank ring (an integer from 0 to 3), found 2.5");
  CHECK(error({process(4), slice("chunk", 4)}) ==
        "t.json: /traceEvents/1/args/chunk: expected a chunk of the 4-rank ring (an integer from 0 to 3), found 4");
  CHECK(error({process(4), slice("tid", -1)}) ==
        "t.json: /traceEvents/1/tid: expected a rank of the 4-rank ring (an integer from 0 to 3), found -1");
  CHECK(error({process(4), slice("peer", "3")}) ==
        "t.json: /traceEvents/1/args/peer: expected a rank of the 4-rank ring (an integer from 0 to 3), found \"3\"");
  CHECK(error({process(4), slice("bytes", 6.5e37)}) ==
        "t.json: /traceEvents/1/args/bytes: expected a byte count (an integer from 0 to 18446744073709551615), found 6.5e+37");
  CHECK(error({process(4), slice("phase", 1)}) == "t.json: /traceEvents/1/args/phase: expected a string, found 1");
  CHECK(error({process(-4)}) == "t.json: /traceEvents/0/args/ranks: expected a rank count (an integer from 1 to 65536), found -4");
  CHECK(error({process(4), 7}) == "t.json: /traceEvents/1: expected an object, found 7");
  CHECK(error({{{"ph", 1}}}) == "t.json: /traceEvents/0/ph: expected a string, found 1");
  CHECK(error({process(kLargestReplayedRing + 1)}) ==
        fmt::format("t.json: /traceEvents/0/args/ranks: the ring case best to draw has {} ranks; the step-by-step "
                    "picture replays rings of at most {}",
                    kLargestReplayedRing + 1, kLargestReplayedRing));
  // Slices of other processes are not read beyond their pid; a ring of the largest size replayed is drawn.
  const std::vector<json> other_slice{process(kLargestReplayedRing), {{"ph", "X"}, {"pid", 2}, {"tid", "x"}}};
  CHECK(movement_from_timeline({{"traceEvents", json(other_slice)}}, "t.json")->ranks == kLargestReplayedRing);
}

TEST_CASE("report: the page inlines the library and keeps </script> inside scripts harmless and escapes text") {
  ReportPage page;
  page.title = "ringsim report: a<b";
  page.summary = "summary";
  page.sections = {{"plot-x", "X", "explained </script>", json{{"data", json::array({json{{"name", "</script><b>"}}})},
                                                            {"layout", json::object()}}},
                   {"plot-y", "Y", "left out because", std::nullopt}};
  const std::string html = report_html(page, "var PlotlyStub = '</script>';");
  CHECK(html.find("var PlotlyStub = '<\\/script>';") != std::string::npos);
  CHECK(html.find("<title>ringsim report: a&lt;b</title>") != std::string::npos);
  CHECK(html.find("\"name\":\"<\\/script><b>\"") != std::string::npos);
  CHECK(html.find("<div class=\"plot\" id=\"plot-x\"></div>") != std::string::npos);
  CHECK(html.find("<p class=\"omitted\" id=\"plot-y\">left out because</p>") != std::string::npos);
  CHECK(html.find("explained &lt;/script&gt;") != std::string::npos);
}

TEST_CASE("report: the ring drawn step by step has 4 to 16 ranks when the results have one") {
  CHECK(better_ring_to_draw(4, 2));
  CHECK(better_ring_to_draw(8, 32));
  CHECK(better_ring_to_draw(4, 8));
  CHECK_FALSE(better_ring_to_draw(2, 3) == better_ring_to_draw(3, 2));
  CHECK(better_ring_to_draw(2, 3));
}

TEST_CASE("report: long placements are named by their node count in legends") {
  const auto results = ResultsDocument::parse(
      {{"results", {entry("ring", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1", 16, 1024, 0.01), entry("ring", "4-3-1", 8, 1024, 0.01)}}},
      "r.json");
  CHECK(case_label(results.rows[0]) == "16 nodes block ring (16 ranks)");
  CHECK(case_label(results.rows[1]) == "4-3-1 block ring (8 ranks)");
}

TEST_CASE("report: a sweep over several topologies keeps them apart, one alone changes nothing") {
  ResultsDocument results;
  for (const char* topology : {"a/seed-rack.json", "b/two-racks.json"})
    for (const char* variant : {"", "1 Gbps"}) {
      ResultRow& row = results.rows.emplace_back();
      row.placement = "2-1", row.ranks = 3, row.bytes = 1024, row.time_s = 1e-3;
      row.topology = topology, row.variant = variant;
    }
  ResultsDocument one = results;
  for (ResultRow& row : one.rows) row.topology = "a/seed-rack.json";
  const ResultsDocument unchanged = one;
  separate_topologies(one);
  CHECK(one == unchanged);
  separate_topologies(results);
  CHECK(results.rows[0].variant == "seed-rack");
  CHECK(results.rows[1].variant == "1 Gbps, seed-rack");
  CHECK(results.rows[2].variant == "two-racks");
  CHECK(results.rows[3].variant == "1 Gbps, two-racks");
  // Two files of one name are told apart by their paths.
  ResultsDocument same_stem;
  for (const char* topology : {"a/rack.json", "b/rack.json"}) {
    ResultRow& row = same_stem.rows.emplace_back();
    row.topology = topology;
  }
  separate_topologies(same_stem);
  CHECK(same_stem.rows[0].variant == "a/rack.json");
  CHECK(same_stem.rows[1].variant == "b/rack.json");
}
