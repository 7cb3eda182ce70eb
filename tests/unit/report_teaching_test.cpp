// The report's teaching of allreduce as its halves and the diagnosis' chart, on hand-made inputs.
#include "../../sim/report/diagnosis_chart.h"
#include "../../sim/report/report_figures.h"
#include "../../sim/report/ring_bottlenecks.h"
#include "temp_files.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

using namespace ringsim;
using namespace ringsim::testing;
using nlohmann::json;

namespace {

json halves_row(const std::string& collective, std::uint64_t bytes, double time_s) {
  json r = {{"placement", "4-2-2"}, {"order", "block"}, {"algorithm", "ring"}, {"ranks", 8},
            {"bytes", bytes},       {"time_s", time_s}, {"busbw_GBps", 1.0}};
  if (collective != "all_reduce") r["collective"] = collective;
  return r;
}

bool close_to(double value, double expected) { return std::abs(value - expected) <= 1e-12 * std::abs(expected); }

}  // namespace

TEST_CASE("report: a ring case with all_reduce and its halves is taught as reduce-scatter then all-gather") {
  json rows = json::array();
  for (std::uint64_t bytes : {1u << 20, 16u << 20}) {
    const double scale = bytes == (1u << 20) ? 1 : 10;
    rows.push_back(halves_row("all_reduce", bytes, 0.004 * scale));
    rows.push_back(halves_row("reduce_scatter", bytes, 0.0021 * scale));
    rows.push_back(halves_row("all_gather", bytes, 0.0019 * scale));
  }
  const auto results = ResultsDocument::parse({{"kind", "simulated"}, {"results", rows}}, "r.json");
  const std::vector<ReportSection> sections = allreduce_halves_sections(results);
  REQUIRE(sections.size() == 3);
  const ReportSection& times = sections[0];
  CHECK(times.id == "plot-allreduce-halves");
  REQUIRE(times.figure);
  // all_reduce, reduce_scatter, all_gather and their sum, in milliseconds.
  REQUIRE(times.figure->at("data").size() == 4);
  const json& sum = times.figure->at("data")[3]["y"];
  CHECK(close_to(sum[1].get<double>(), (0.021 + 0.019) * 1e3));
  REQUIRE(times.tables.size() == 1);
  CHECK(times.tables[0].rows[1] == std::vector<std::string>{"16MiB", "40.000 ms", "21.000 ms", "19.000 ms", "40.000 ms", "1.000x"});
  CHECK(times.explanation.find("at 16MiB the allreduce takes 40.000 ms, the reduce-scatter 21.000 ms and the all-gather 19.000 ms") !=
        std::string::npos);
  // One heatmap per half: N-1 = 7 steps each, of the 8-rank ring the case ran.
  for (std::size_t half = 1; half < 3; ++half) {
    const ReportSection& steps = sections[half];
    REQUIRE(steps.figure);
    const json& x = steps.figure->at("data")[0]["x"];
    CHECK(x.size() == 7);
    CHECK(steps.figure->at("data")[0]["z"].size() == 8);
  }
  CHECK(sections[1].figure->at("data")[0]["x"][0] == "scatter_reduce 0");
  CHECK(sections[2].figure->at("data")[0]["x"][6] == "allgather 6");
  // At the last scatter-reduce step rank r receives chunk (r+1) mod N, the one it finishes.
  CHECK(sections[1].figure->at("data")[0]["z"][3][6] == 4);
}

TEST_CASE("report: results without the three collectives of one ring case have no halves section") {
  json rows = json::array({halves_row("all_reduce", 1u << 20, 0.004), halves_row("all_gather", 1u << 20, 0.002)});
  CHECK(allreduce_halves_sections(ResultsDocument::parse({{"kind", "simulated"}, {"results", rows}}, "r.json")).empty());
}

TEST_CASE("report: the diagnosis' chart reads validate --explain --json and draws measured, hardware and the explaining variant") {
  TempDir dir;
  const json document = {
      {"kind", "validation"},
      {"scenario", "hw"},
      {"trace", {{"file", "run.txt"}}},
      {"sizes", json::array({{{"placement", "2x4"}, {"order", "block"}, {"ranks", 8}, {"bytes", 1048576}, {"measured_s", 2e-4}, {"simulated_s", 1e-4}},
                             {{"placement", "2x4"}, {"order", "block"}, {"ranks", 8}, {"bytes", 16777216}, {"measured_s", 2e-3}, {"simulated_s", 5e-4}}})},
      {"diagnosis",
       {{"ranking", json::array({{{"candidate", "GDR off"}, {"change", "gdr false"}, {"score", 0.015},
                                  {"sizes", json::array({{{"bytes", 1048576}, {"simulated_s", 1.9e-4}}, {{"bytes", 16777216}, {"simulated_s", 2.1e-3}}})}},
                                 {{"candidate", "hardware as described"}, {"change", "none"}, {"score", 0.8},
                                  {"sizes", json::array({{{"bytes", 1048576}, {"simulated_s", 1e-4}}, {{"bytes", 16777216}, {"simulated_s", 5e-4}}})}}})},
        {"explained_by", "GDR off"},
        {"confirm", "\"/GDRDMA\" on the \"via NET/...\" lines"}}}};
  const std::string file = (dir.path() / "v.json").string();
  std::ofstream(file) << document.dump();
  const DiagnosisChart chart = read_diagnosis_chart(file);
  CHECK(chart.case_name == "2x4 block");
  CHECK(chart.explains);
  REQUIRE(chart.variant);
  CHECK(chart.variant->name == "GDR off");
  CHECK(chart.hardware.time_s == std::vector<double>{1e-4, 5e-4});
  const ReportSection section = diagnosis_section(chart);
  REQUIRE(section.figure);
  const json& data = section.figure->at("data");
  REQUIRE(data.size() == 3);
  // busbw = S/t x 2(N-1)/N: 16 MiB in 2 ms measured, 0.5 ms on the hardware as described.
  CHECK(close_to(data[0]["y"][1].get<double>(), 16777216 / 2e-3 * 2 * 7 / 8 / 1e9));
  CHECK(close_to(data[1]["y"][1].get<double>(), 16777216 / 5e-4 * 2 * 7 / 8 / 1e9));
  CHECK(section.explanation.find("its score (median |log error|) is 1.5% against 80.0%") != std::string::npos);

  json plain = document;
  plain.erase("diagnosis");
  std::ofstream(dir.path() / "plain.json") << plain.dump();
  CHECK(RINGSIM_ERROR_OF(read_diagnosis_chart((dir.path() / "plain.json").string())).find("/diagnosis: missing") != std::string::npos);
}

TEST_CASE("report: an alltoall case's bottleneck is its busiest NIC, with its pair flows and bytes, in each placement") {
  json rows = json::array();
  for (const char* placement : {"4-2-2", "4-3-1"}) {
    json r = halves_row("alltoall", 16u << 20, 0.030);
    r["placement"] = placement;
    r["algorithm"] = "pairwise";
    rows.push_back(r);
  }
  const auto results = ResultsDocument::parse({{"kind", "simulated"}, {"results", rows}}, "r.json");
  const RingCases cases(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json", results, "r.json");
  const BottleneckNamer namer = ring_bottleneck_namer(cases);
  // node0 holds 4 of the 8 ranks in both: 4 x 4 = 16 of the 56 pair flows, 16/8 = 2 S = 32 MiB each way.
  for (const ResultRow& row : results.rows)
    CHECK(namer(row) == "the NIC of node0, whose 4 ranks exchange 4x4 = 16 of the 8x7 = 56 pair flows (2.00 buffers each way), "
                        "32MiB each way");
}
