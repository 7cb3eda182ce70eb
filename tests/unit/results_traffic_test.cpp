#include "../../sim/results/case_results.h"
#include "../../sim/results/results_document.h"
#include "../../sim/results/results_table.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

CaseResult case_of(const std::string& algorithm, std::optional<TrafficSummary> traffic) {
  CaseResult result{{{{1, 1, 1, 1}, RankOrder::block}, algorithm}, 4, {{1 << 20, {0.01}, 0}}};
  result.sizes[0].traffic = traffic;
  return result;
}

}  // namespace

TEST_CASE("results JSON carries traffic (null when uncounted) and the closed form with its cost model") {
  CaseResult ring = case_of("ring", TrafficSummary{3u << 19, 3u << 19, 3u << 21, 6});
  ring.sizes[0].closed_form_s = 0.0095;
  ring.cost_model = CostParameters{3e-6, 8e-10, 2.5e-13};
  ResultsDocument document;
  document.rows = result_rows({ring, case_of("mpi", std::nullopt)});
  const auto json = document.to_json();
  const auto& row = json["results"][0];
  CHECK(row["traffic"]["max_rank_sent_bytes"] == 3u << 19);
  CHECK(row["traffic"]["total_bytes"] == 3u << 21);
  CHECK(row["traffic"]["steps"] == 6);
  CHECK(row["closed_form_s"] == 0.0095);
  CHECK(row["cost_model"]["beta_s_per_byte"] == 8e-10);
  CHECK(json["results"][1]["traffic"].is_null());
  CHECK_FALSE(json["results"][1].contains("closed_form_s"));
  CHECK_FALSE(json["results"][1].contains("cost_model"));
}

TEST_CASE("the table shows per-rank traffic in units of S only when algorithms other than the ring run") {
  Scenario scenario;
  scenario.algorithms = {"ring"};
  ClusterLayout layout;
  for (int i = 0; i < 4; ++i) layout.nodes.push_back({"n" + std::to_string(i), {"n" + std::to_string(i) + "-gpu0"}});
  const CaseResult ring = case_of("ring", TrafficSummary{3u << 19, 3u << 19, 3u << 21, 6});
  CHECK(case_table(ring, scenario, layout).find("sent/S") == std::string::npos);
  scenario.algorithms = {"ring", "parameter_server", "mpi"};
  const std::string table = case_table(ring, scenario, layout);
  CHECK(table.find("#wrong  sent/S  recv/S   msgs") != std::string::npos);
  CHECK(table.find("0   1.500   1.500      6") != std::string::npos);
  CHECK(case_table(case_of("mpi", std::nullopt), scenario, layout).find("N/A     N/A    N/A") != std::string::npos);
}
