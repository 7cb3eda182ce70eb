// The report at hundreds of cases: the ranking of cases, panels of at most 10 series, one colour per
// algorithm, tick labels that are powers of 2 (sizes) or of 10 (times) with their units.
#include "../../sim/report/placement_ranking.h"
#include "../../sim/report/plot_style.h"
#include "../../sim/rank/algorithm_catalog.h"

#include <cmath>
#include <doctest/doctest.h>
#include <set>

using namespace ringsim;
using nlohmann::json;

namespace {

// 30 placements of 8 ranks whose time at the larger size is 1 ms x (1 + index / 10): "p0" is the
// fastest, "p29" the slowest; "p1" ties "p0"; all at two sizes, ring and (from index 20) rabenseifner.
ResultsDocument thirty_cases() {
  json rows = json::array();
  for (int i = 0; i < 30; ++i)
    for (std::uint64_t bytes : {1u << 16, 1u << 20}) {
      const double time = (bytes == (1u << 20) ? 1e-3 : 1e-4) * (1 + (i == 1 ? 0 : i) / 10.0);
      rows.push_back({{"placement", "p" + std::to_string(i)}, {"order", "block"}, {"algorithm", i < 20 ? "ring" : "rabenseifner"},
                      {"ranks", 8}, {"bytes", bytes}, {"time_s", time}, {"busbw_GBps", 1.0}});
    }
  return ResultsDocument::parse({{"results", rows}}, "r.json");
}

bool power_of(double value, double base) {
  const double exponent = std::log(value) / std::log(base);
  return std::abs(exponent - std::round(exponent)) < 1e-9;
}

}  // namespace

TEST_CASE("report: tick labels are sizes in binary units and times with their unit") {
  CHECK(size_tick_label(1024) == "1 KiB");
  CHECK(size_tick_label(64u << 20) == "64 MiB");
  CHECK(size_tick_label(1500) == "1500 B");
  CHECK(time_tick_label(1e-3) == "1 ms");
  CHECK(time_tick_label(1e-5) == "10 µs");
  CHECK(time_tick_label(16e-3) == "16 ms");
  CHECK(time_tick_label(2) == "2 s");
  // 64 KiB to 4 MiB: every power of 2 in between, 7 ticks.
  const json sizes = size_axis(64u << 10, 4u << 20);
  CHECK(sizes.at("ticktext") == json::array({"64 KiB", "128 KiB", "256 KiB", "512 KiB", "1 MiB", "2 MiB", "4 MiB"}));
  // 1 KiB to 1 GiB: 21 powers of 2 are too many for 8 ticks; every 2^5.
  const json wide = size_axis(1u << 10, 1u << 30);
  CHECK(wide.at("ticktext") == json::array({"1 KiB", "32 KiB", "1 MiB", "32 MiB", "1 GiB"}));
  for (const auto& value : wide.at("tickvals")) CHECK(power_of(value.get<double>(), 2));
  // Times over three decades: powers of 10 (in ms, the plotted unit).
  const json decades = log_time_axis(2e-5, 3e-2);
  CHECK(decades.at("ticktext") == json::array({"100 µs", "1 ms", "10 ms"}));
  CHECK(decades.at("tickvals") == json::array({0.1, 1.0, 10.0}));
  // Less than a decade: powers of 2 of one unit.
  const json narrow = log_time_axis(7.381e-3, 27.045e-3);
  CHECK(narrow.at("ticktext") == json::array({"8 ms", "16 ms"}));
}

TEST_CASE("report: an algorithm has one colour in every plot") {
  CHECK(algorithm_colour("ring") == "#1f77b4");
  CHECK(algorithm_colour("rabenseifner") == "#2ca02c");
  std::set<std::string> colours;
  for (const AlgorithmInfo& info : kAlgorithmCatalog) colours.insert(algorithm_colour(info.name));
  CHECK(colours.size() == kAlgorithmCatalog.size());
  // A name outside the catalog (a library's own) gets a colour of its own, none of the catalog's, the
  // same in every run: a sum of its characters picks it, not std::hash.
  const std::string other = algorithm_colour("a library's own");
  CHECK(colours.count(other) == 0);
  CHECK(other.size() == 7);
  CHECK(other.front() == '#');
}

TEST_CASE("report: a panel of 30 cases draws the 4 fastest, the 4 slowest and a band over the other 22") {
  const ResultsDocument results = thirty_cases();
  const auto sections = size_sections(results);
  REQUIRE(sections.size() == 2);
  for (const auto& section : sections) {
    const json& data = section.figure->at("data");
    REQUIRE(data.size() == 9);
    std::vector<std::string> names;
    for (const auto& trace : data) names.push_back(trace.at("name"));
    CHECK(names == std::vector<std::string>{"p0 block ring", "p1 block ring", "p2 block ring", "p3 block ring",
                                            "p26 block rabenseifner", "p27 block rabenseifner", "p28 block rabenseifner",
                                            "p29 block rabenseifner", "22 other cases (range)"});
    CHECK(data[0].at("line").at("color") == algorithm_colour("ring"));
    CHECK(data[7].at("line").at("color") == algorithm_colour("rabenseifner"));
    CHECK(data[7].at("line").at("dash") == "dash");
  }
  // The band spans p4..p25 at each size: from 1.4 to 3.5 ms at 1 MiB.
  const json& band = sections[0].figure->at("data")[8];
  CHECK(band.at("x") == json::array({1u << 16, 1u << 20, 1u << 20, 1u << 16}));
  CHECK(band.at("y")[1].get<double>() == doctest::Approx(1.4));
  CHECK(band.at("y")[2].get<double>() == doctest::Approx(3.5));
}

TEST_CASE("report: the ranking lists the 5 fastest and 5 slowest per N with ties sharing a rank") {
  const ResultsDocument results = thirty_cases();
  const auto groups = rank_cases(results, 1u << 20, [](const ResultRow& row) {
    return row.algorithm == "ring" ? "bottleneck of " + row.placement : std::string();
  });
  REQUIRE(groups.size() == 1);
  const RankingGroup& group = groups[0];
  REQUIRE(group.cases.size() == 30);
  CHECK(group.cases[0].name == "p0 block ring");
  CHECK(group.cases[1].position == 1);  // p1 ties p0
  CHECK(group.cases[2].position == 3);
  CHECK(group.cases[29].name == "p29 block rabenseifner");
  CHECK(group.cases[29].slowdown == doctest::Approx(3.9));
  CHECK(group.cases[0].bottleneck == "bottleneck of p0");
  CHECK(group.cases[29].bottleneck.empty());
  CHECK(listed_cases(group) == std::vector<std::size_t>{0, 1, 2, 3, 4, 25, 26, 27, 28, 29});
  const std::string text = ranking_text(groups, "note.");
  CHECK(text.find("# N = 8 ranks: 30 cases at 1MiB: 1.000 ms to 3.900 ms (3.90x); 2 tie fastest\n") != std::string::npos);
  CHECK(text.find("\n     1  p0 block ring                  1.000 ms      1.00x  bottleneck of p0\n") != std::string::npos);
  CHECK(text.find("        … 20 more cases, 1.500 ms to 3.400 ms\n") != std::string::npos);
  CHECK(text.find("\n    30  p29 block rabenseifner         3.900 ms      3.90x  -\n") != std::string::npos);
  const ReportSection section = ranking_section(groups, "note.");
  REQUIRE(section.figure);
  CHECK(section.figure->at("data").size() == 2);  // a series per algorithm
  REQUIRE(section.tables.size() == 1);
  CHECK(section.tables[0].rows.size() == 11);  // 5 + the summary of the 20 others + 5
}
