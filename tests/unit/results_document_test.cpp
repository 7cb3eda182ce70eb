// The results JSON's one writer and reader (sim/results/results_document.h) and the rank report's
// schema (sim/rank/rank_report.h): what is written reads back equal, and files of earlier versions
// still read (the flagship's, byte for byte when written again).
#include "../../sim/common/input_error.h"
#include "../../sim/common/json_input.h"
#include "../../sim/results/results_document.h"
#include "../../sim/validate/trace_readers.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <filesystem>

using namespace ringsim;

namespace {

// Every key the writer knows, with both forms of the optional ones.
ResultsDocument every_field() {
  ResultsDocument document;
  document.kind = "simulated";
  document.scenario = "round trip";
  document.question = "Is 4-3-1 slower than 4-2-2?";
  document.topology = "../topologies/seed-rack.json";
  document.variants = {{"1 Gbps", {{"nic_bandwidth", "1Gbps"}}}, {"10 Gbps", {{"nic_bandwidth", "10Gbps"}}}};
  document.findings = {"4-3-1 block takes 1.50x the time of 4-2-2 block at 64MiB."};
  CaseResult ring{{{{4, 3, 1}, RankOrder::cyclic}, "ring", "s4u"}, 8, {{64u << 20, {0.3, 0.1, 0.2}, 0}}};
  ring.sizes[0].traffic = TrafficSummary{7u << 23, 7u << 23, 7u << 26, 14};
  ring.sizes[0].closed_form_s = 0.125;
  ring.cost_model = CostParameters{3e-6, 8e-10, 2.5e-13};
  const CaseResult library{{{{4, 2, 2}, RankOrder::block}, "mpi"}, 8, {{1u << 10, {1e-5}, std::nullopt}}};
  document.rows = result_rows({ring, library}, "1 Gbps");
  for (ResultRow& row : result_rows({library}, "10 Gbps")) document.rows.push_back(row);
  return document;
}

std::string file_text(const std::filesystem::path& file) { return read_input_file(file); }

}  // namespace

TEST_CASE("results document: rows are computed from the cases") {
  const ResultsDocument document = every_field();
  REQUIRE(document.rows.size() == 3);
  const ResultRow& ring = document.rows[0];
  CHECK(ring.placement == "4-3-1");
  CHECK(ring.order == "cyclic");
  CHECK(ring.engine == "s4u");
  CHECK(ring.iterations == 3);
  CHECK(ring.time_s == 0.2);  // the median of 0.3, 0.1, 0.2
  CHECK(ring.time_stats == TimeStats{0.1, 0.2, 0.3});
  CHECK(ring.algbw_GBps == doctest::Approx((64u << 20) / 0.2 / 1e9));
  CHECK(ring.busbw_GBps == doctest::Approx(ring.algbw_GBps * 2 * 7 / 8));
  CHECK(document.rows[1].traffic == std::nullopt);
  CHECK(document.rows[2].variant == "10 Gbps");
}

TEST_CASE("results document: what is written reads back equal, and writes the same text again") {
  const ResultsDocument written = every_field();
  const nlohmann::json json = written.to_json();
  CHECK(json.at("results")[0].at("engine") == "s4u");
  CHECK_FALSE(json.at("results")[1].contains("engine"));  // SMPI goes unsaid
  CHECK(json.at("question") == "Is 4-3-1 slower than 4-2-2?");
  CHECK(json.at("topology") == "../topologies/seed-rack.json");
  CHECK_FALSE(json.contains("model"));
  CHECK_FALSE(json.contains("source"));
  const ResultsDocument read = ResultsDocument::parse(nlohmann::json::parse(json.dump(2)), "r.json");
  CHECK(read == written);
  CHECK(read.to_json().dump(2) == json.dump(2));

  ResultsDocument measured;
  measured.kind = "measured";
  measured.source = {{"mode", "emulated"}, {"hosts", {"h0", "h1"}}};
  measured.model = nullptr;
  measured.rows = {written.rows[1]};
  measured.rows[0].variant.clear();
  CHECK(ResultsDocument::parse(measured.to_json(), "m.json") == measured);
}

TEST_CASE("results document: a sweep's topologies and case numbers are written and read back") {
  ResultsDocument sweep = every_field();
  sweep.topologies = {"a/seed-rack.json", "b/two-racks.json"};
  sweep.rows[0].topology = "a/seed-rack.json";
  sweep.rows[1].topology = "b/two-racks.json";
  sweep.rows[1].case_index = 7;
  const nlohmann::json json = sweep.to_json();
  CHECK(json.at("topologies") == nlohmann::json{"a/seed-rack.json", "b/two-racks.json"});
  CHECK(json.at("results")[0].at("topology") == "a/seed-rack.json");
  CHECK_FALSE(json.at("results")[0].contains("case"));
  CHECK(json.at("results")[1].at("case") == 7);
  CHECK_FALSE(json.at("results")[2].contains("topology"));  // unsaid when empty, as in every golden
  CHECK(ResultsDocument::parse(nlohmann::json::parse(json.dump(2)), "s.json") == sweep);
  CHECK_FALSE(every_field().to_json().contains("topologies"));
  // A sweep's header (no rows) and a shard without cases read as parts of a document.
  ResultsDocument header = sweep;
  header.rows.clear();
  CHECK(ResultsDocument::parse_part(header.to_json(), "m.json", "/document") == header);
  nlohmann::json bad = json;
  bad["topologies"][1] = 2;
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(bad, "s.json")) == "s.json: /topologies/1: expected a string, found 2");
}

TEST_CASE("results document: the flagship's committed results JSON reads and is written byte for byte") {
  // tests/fixtures/results/flagship.json: `ringsim run scenarios/locality-4-2-2-vs-4-3-1.json --json`,
  // the reference file the document must read and write again byte for byte.
  const std::filesystem::path file = RINGSIM_SOURCE_DIR "/tests/fixtures/results/flagship.json";
  const ResultsDocument flagship = ResultsDocument::load(file);
  CHECK(flagship.kind == "simulated");
  CHECK(flagship.scenario == "locality-4-2-2-vs-4-3-1");
  REQUIRE(flagship.rows.size() == 40);
  CHECK(flagship.variants.size() == 2);
  CHECK_FALSE(flagship.findings.empty());
  for (const ResultRow& row : flagship.rows) {
    CAPTURE(row.placement);
    CHECK(row.time_stats.median == row.time_s);
    CHECK(row.busbw_GBps == doctest::Approx(busbw_GBps(row.bytes, row.time_s, row.ranks)));
    CHECK(row.traffic.has_value());
  }
  CHECK(flagship.to_json().dump(2) + "\n" == file_text(file));

  // And the report's fixture (a scenario without variants: "model" at the top).
  const std::filesystem::path report = RINGSIM_SOURCE_DIR "/tests/fixtures/report/results.json";
  const ResultsDocument report_results = ResultsDocument::load(report);
  CHECK_FALSE(report_results.model.is_null());
  CHECK(report_results.to_json().dump(2) + "\n" == file_text(report));
}

TEST_CASE("results document: the committed measured traces, from a writer without traffic counts, read") {
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(RINGSIM_SOURCE_DIR "/validate/traces/emulated")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    ++traces;
    const ResultsDocument measured = ResultsDocument::load(entry.path());
    CHECK(measured.kind == "measured");
    CHECK(measured.source.at("mode") == "emulated");
    REQUIRE_FALSE(measured.rows.empty());
    CHECK_FALSE(measured.rows[0].traffic);
    CHECK(measured.rows[0].iterations >= 3);
  }
  CHECK(traces > 0);
}

TEST_CASE("results document: bad rows are errors naming the file and the JSON path") {
  nlohmann::json json = every_field().to_json();
  json["results"][1]["ranks"] = "eight";
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json, "r.json")) == "r.json: /results/1/ranks: expected an integer from 1 to 2147483647, found \"eight\"");
  json = every_field().to_json();
  json["results"][0]["traffic"].erase("max_rank_sent_bytes");
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json, "r.json")) == "r.json: /results/0/traffic/max_rank_sent_bytes: missing required key");
  json = every_field().to_json();
  json["results"][2]["time_s"] = 0;
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json, "r.json")) == "r.json: /results/2: ranks, bytes and time_s must be positive");
  json = every_field().to_json();
  json["findings"] = "none";
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json, "r.json"))== "r.json: /findings: expected an array, found \"none\"");
  json = every_field().to_json();
  json["results"][0]["iterations"] = 5.55556e+128;  // a float where a count belongs: no conversion, an error
  CHECK(RINGSIM_ERROR_OF(ResultsDocument::parse(json, "r.json")) ==
        "r.json: /results/0/iterations: expected an integer from 0 to 18446744073709551615, found 5.55556e+128");
}

TEST_CASE("results document: the validator reads the ring rows of a results JSON through it") {
  const std::filesystem::path file = RINGSIM_SOURCE_DIR "/tests/fixtures/results/flagship.json";
  const MeasuredTrace trace = read_ringsim_results(file_text(file), file.string());
  CHECK(trace.points.size() == 40);  // every row of the flagship runs the ring
  CHECK(trace.points[0].placement == "4-2-2");
  CHECK(trace.points[0].ranks == 8);
  const std::string no_ring = every_field().to_json().dump();  // rows of "ring" and "mpi"
  CHECK(read_ringsim_results(no_ring, "r.json").points.size() == 1);
}

TEST_CASE("rank report: what the rank program writes, the launcher reads back equal") {
  RankReport report{"ring", 8, true, {}};
  report.sizes.push_back({1024, {0.5, 0.25}, 0, TrafficSummary{1792, 1792, 14336, 14}});
  report.sizes.push_back({4096, {1.0}, std::nullopt, std::nullopt});
  const nlohmann::json json = rank_report_json(report);
  CHECK(json.at("sizes")[0].at("count") == 256);
  CHECK(json.at("sizes")[1].at("wrong").is_null());
  CHECK(json.at("sizes")[1].at("traffic").is_null());
  const RankReport read = parse_rank_report(nlohmann::json::parse(json.dump(1)), "report.json");
  CHECK(read.algorithm == "ring");
  CHECK(read.ranks == 8);
  CHECK(read.smpi);
  REQUIRE(read.sizes.size() == 2);
  CHECK(read.sizes[0].times_s == std::vector<double>{0.5, 0.25});
  CHECK(read.sizes[0].wrong == 0);
  CHECK(read.sizes[0].traffic == TrafficSummary{1792, 1792, 14336, 14});
  CHECK_FALSE(read.sizes[1].wrong);
  CHECK_FALSE(read.sizes[1].traffic);
  CHECK(rank_report_json(read) == json);
  CHECK_THROWS_WITH_AS(parse_rank_report({{"algorithm", "ring"}, {"ranks", 8}}, "report.json"),
                       "report.json: /smpi: missing required key", InputError);
  nlohmann::json huge = json;
  huge["sizes"][0]["wrong"] = 5.55556e+128;  // a float where a count belongs: no conversion, an error
  CHECK_THROWS_WITH_AS(parse_rank_report(huge, "report.json"),
                       "report.json: /sizes/0/wrong: expected an integer from -9223372036854775808 to "
                       "9223372036854775807, found 5.55556e+128",
                       InputError);
}
