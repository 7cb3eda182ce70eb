#include "../../sim/results/case_results.h"
#include "../../sim/results/results_document.h"
#include "../../sim/results/results_table.h"

#include <doctest/doctest.h>

using namespace ringsim;

TEST_CASE("median of the slowest-rank times and nccl-tests' bandwidths") {
  SizeResult odd{1 << 20, {3.0, 1.0, 2.0}, 0};
  CHECK(odd.median_s() == 2.0);
  CHECK(odd.min_s() == 1.0);
  CHECK(odd.max_s() == 3.0);
  SizeResult even{1 << 20, {4.0, 1.0, 2.0, 3.0}, 0};
  CHECK(even.median_s() == 2.5);
  // 16 MiB in 26.72 ms on 8 ranks: algbw 0.628 GB/s, busbw = algbw * 2*7/8.
  CHECK(algbw_GBps(16u << 20, 0.02672) == doctest::Approx(0.6279).epsilon(1e-3));
  CHECK(busbw_GBps(16u << 20, 0.02672, 8) == doctest::Approx(0.6279 * 1.75).epsilon(1e-3));
  CHECK(busbw_GBps(16u << 20, 0.02672, 1) == 0.0);
}

TEST_CASE("results JSON carries the documented keys and the comparison divides by the first case") {
  CaseResult a{{{{4, 2, 2}, RankOrder::block}, "ring"}, 8, {{64u << 20, {0.1, 0.1, 0.1}, std::nullopt}}};
  CaseResult b{{{{4, 3, 1}, RankOrder::cyclic}, "ring"}, 8, {{64u << 20, {0.3, 0.3, 0.3}, 0}}};
  ResultsDocument document;
  document.rows = result_rows({a, b});
  const auto json = document.to_json();
  CHECK(json["kind"] == "simulated");
  REQUIRE(json["results"].size() == 2);
  const auto& row = json["results"][1];
  CHECK(row["placement"] == "4-3-1");
  CHECK(row["order"] == "cyclic");
  CHECK(row["ranks"] == 8);
  CHECK(row["bytes"] == 64u << 20);
  CHECK(row["time_s"] == 0.3);
  CHECK(row["busbw_GBps"].get<double>() == doctest::Approx(busbw_GBps(64u << 20, 0.3, 8)));
  CHECK(json["results"][0]["wrong"].is_null());
  const std::string table = comparison_table({a, b});
  CHECK(table.find("64MiB") != std::string::npos);
  CHECK(table.find("300.000 ms (3.00x)") != std::string::npos);
}
