// The report of a scenario that compares one algorithm across placements: the findings grouped as the
// page shows them, the answer's chart, and the ring drawn over the nodes.
#include "../../sim/report/plot_style.h"
#include "../../sim/report/ring_picture.h"
#include "../../sim/report/scenario_answer.h"

#include <doctest/doctest.h>

using namespace ringsim;
using nlohmann::json;

namespace {

json row(const std::string& placement, const std::string& order, std::uint64_t bytes, double time_s) {
  return {{"placement", placement}, {"order", order}, {"algorithm", "ring"}, {"ranks", 8}, {"bytes", bytes}, {"time_s", time_s}};
}

// 4-2-2 block and 4-3-1 cyclic on the seed rack (3 nodes of 4 GPUs, one NIC each), at two sizes.
ResultsDocument seed_rack_results() {
  return ResultsDocument::parse({{"scenario", "s"},
                                 {"topology", "../../topologies/seed-rack.json"},
                                 {"results",
                                  {row("4-2-2", "block", 1u << 20, 0.01), row("4-3-1", "cyclic", 1u << 20, 0.02),
                                   row("4-2-2", "block", 64u << 20, 0.1), row("4-3-1", "cyclic", 64u << 20, 0.3)}}},
                                "r.json");
}

int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("report: the page leads with the answers across variants, then each variant's findings without its tag") {
  ResultsDocument results = seed_rack_results();
  results.question = "Is 4-3-1 slower?";
  results.findings = {"[plain] 4-3-1 block takes 1.00x the time of 4-2-2 block at 256MiB.",
                      "[process-stack] 4-3-1 block takes 2.00x the time of 4-2-2 block at 256MiB.",
                      "[plain] 4-2-2 cyclic takes 2.00x the time of 4-2-2 block at 256MiB.",
                      "Answer, 4-3-1 block against 4-2-2 block: slower under process-stack (2.00x), not under plain (1.00x)."};
  const ReportLead lead = report_lead(results);
  CHECK(lead.question == "Is 4-3-1 slower?");
  REQUIRE(lead.answers.size() == 1);
  CHECK(lead.answers[0].starts_with("4-3-1 block against 4-2-2 block: slower"));  // under the page's "Answer"
  REQUIRE(lead.findings.size() == 2);
  CHECK(lead.findings[0].variant == "plain");
  CHECK(lead.findings[0].sentences ==
        std::vector<std::string>{"4-3-1 block takes 1.00x the time of 4-2-2 block at 256MiB.",
                                 "4-2-2 cyclic takes 2.00x the time of 4-2-2 block at 256MiB."});
  CHECK(lead.findings[1].variant == "process-stack");

  ReportPage page;
  page.lead = lead;
  const std::string html = report_html(page, "");
  CHECK(html.find("id=\"lead-question\"") < html.find("id=\"lead-answer-0\""));
  CHECK(html.find("<strong>4-3-1 block against 4-2-2 block</strong>: slower under process-stack") != std::string::npos);
  CHECK(html.find("Findings under plain") < html.find("Findings under process-stack"));
}

TEST_CASE("report: the answer's chart is each case's time over the first case's, with its bottleneck and colour") {
  const ResultsDocument results = seed_rack_results();
  CHECK(compares_one_algorithm(results));
  const RingCases rings(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json", results, "r.json");
  const ReportSection section = answer_section(results, 64u << 20, &rings, "note");
  REQUIRE(section.figure);
  const json& bars = section.figure->at("data");
  REQUIRE(bars.size() == 1);  // no variants: one panel
  CHECK(bars[0].at("x") == json{"4-2-2 block", "4-3-1 cyclic"});
  CHECK(bars[0].at("y")[0].get<double>() == doctest::Approx(1.0));
  CHECK(bars[0].at("y")[1].get<double>() == doctest::Approx(0.3 / 0.1));
  CHECK(bars[0].at("marker").at("color") == json{case_colour(0), case_colour(1)});
  REQUIRE(section.tables.size() == 1);
  REQUIRE(section.tables[0].rows.size() == 2);
  // Cyclic 4-3-1 deals ranks 0, 3, 5, 7 to node0, whose predecessors 2, 4, 6 are elsewhere: 3 ring edges enter node0.
  CHECK(section.tables[0].rows[1][4].find("node0-nic") != std::string::npos);
  CHECK(section.tables[0].rows[1][4].find("3 ring edges") != std::string::npos);
  CHECK(bars[0].at("hovertext")[1].get<std::string>().find("node0-nic") != std::string::npos);
}

TEST_CASE("report: the ring over the nodes draws every hop and the busiest link's hops in red") {
  const ResultsDocument results = seed_rack_results();
  const RingCases rings(RINGSIM_SOURCE_DIR "/topologies/seed-rack.json", results, "r.json");
  const RingCase* cyclic = rings.of(results.rows[3]);
  REQUIRE(cyclic != nullptr);
  const std::string svg = ring_picture_svg(*cyclic, rings.layout(), "t", 480, case_colour(1));
  CHECK(count(svg, "fill=\"#f7f7f7\"") == 3);           // the 3 nodes' boxes
  CHECK(count(svg, "class=\"tag\">3 ring edges<") == 1);  // on node0's box
  CHECK(count(svg, "marker-end=\"url(#t-hop)\"") == 5);  // 8 hops, 3 of them red
  CHECK(count(svg, "marker-end=\"url(#t-hot)\"") == 3);
  CHECK(svg.find("node0-nic, inbound: 3 ring edges") != std::string::npos);

  const ReportSection section = ring_pictures_section(results, 64u << 20, &rings, "note");
  CHECK(count(section.html, "<svg class=\"ring\"") == 2);
  CHECK_FALSE(ring_pictures_section(results, 64u << 20, nullptr, "Give --topology").figure);
}
