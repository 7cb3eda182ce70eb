#include "../../sim/validate/asked_sizes.h"
#include "../../sim/validate/regime_verdict.h"
#include "../../sim/validate/suite_validation.h"
#include "../../sim/validate/trace_validation.h"

#include <cmath>
#include <vector>
#include <doctest/doctest.h>

using namespace ringsim;

TEST_CASE("validation pairs measured sizes with simulated ones and judges above min bytes") {
  const PlacementSpec placement{{4, 2, 2}, RankOrder::cyclic};
  GroupedTrace grouped;
  grouped.cases.push_back({placement, {{1u << 20, 1.0}, {4u << 20, 2.0}}});  // no 16 MiB measurement
  CaseResult simulated{{placement, "ring"}, 8, {}};
  simulated.sizes = {{1u << 20, {1.1}, 0}, {4u << 20, {1.6, 1.6, 1.6}, 0}, {16u << 20, {5.0}, 0}};

  ValidationOptions options;
  options.min_bytes = 2u << 20;
  options.tolerance = 0.15;
  const Validation validation = compare_with_trace(grouped, {simulated}, options);
  REQUIRE(validation.cases.size() == 1);
  CHECK(validation.cases[0].label == placement.label());
  CHECK(validation.cases[0].ranks == 8);
  REQUIRE(validation.cases[0].sizes.size() == 2);  // 16 MiB was not measured
  CHECK(validation.cases[0].sizes[1].error() == doctest::Approx(1.6 / 2.0 - 1));
  // All sizes: errors +10% and -20%; median |error| 15%, geometric mean sqrt(1.1 * 0.8) - 1.
  CHECK(validation.all.count == 2);
  CHECK(validation.all.median_abs_error == doctest::Approx(0.15));
  CHECK(validation.all.geomean_error == doctest::Approx(std::sqrt(1.1 * 0.8) - 1));
  // Judged (>= 2 MiB): only 4 MiB, |error| 20% > 15%.
  CHECK(validation.judged.count == 1);
  CHECK(validation.judged.worst_error == doctest::Approx(-0.2));
  CHECK_FALSE(validation.pass);
  options.tolerance = 0.25;
  CHECK(compare_with_trace(grouped, {simulated}, options).pass);
}

TEST_CASE("--min-bytes names the size nccl-tests was asked for: an all-gather's row printed below it is judged") {
  // nccl-tests over 80 ranks, asked for 32, 64 and 128 MiB, prints an all-gather's whole 16-byte blocks per rank.
  GroupedTrace grouped;
  grouped.collective = Collective::all_gather;
  grouped.cases.push_back({PlacementSpec{{8, 8, 8, 8, 8, 8, 8, 8, 8, 8}, RankOrder::block}, {}});
  grouped.sizes = {33553920, 67107840, 134216960};
  const std::uint64_t asked = 64u << 20;
  CHECK(judged_from_bytes(grouped, "nccl-tests", asked) == 67107840);
  CHECK(judged_from_bytes(grouped, "nccl-tests", 32u << 20) == 33553920);
  CHECK(judged_from_bytes(grouped, "nccl-tests", 128u << 20) == 134216960);
  CHECK(judged_from_bytes(grouped, "osu", asked) == asked);  // other formats print what they ran
  // 80 x 16 bytes below is beyond what the rounding takes off (less than 80 x 16).
  grouped.sizes = {asked - 80 * 16};
  CHECK(judged_from_bytes(grouped, "nccl-tests", asked) == asked);
  grouped.sizes = {asked - 80 * 16 + 4};
  CHECK(judged_from_bytes(grouped, "nccl-tests", asked) == asked - 80 * 16 + 4);
  grouped.collective = Collective::all_reduce;  // printed as asked
  CHECK(judged_from_bytes(grouped, "nccl-tests", asked) == asked);

  grouped.collective = Collective::alltoall;
  grouped.sizes = {67107840};
  ValidationOptions options;
  options.min_bytes = asked;
  const ValidationOptions judged = options_for_trace(options, grouped, "nccl-tests");
  CHECK(judged.min_bytes == 67107840);
  CHECK(judged.min_bytes_asked == asked);
  CHECK(judged_from_text(judged) == "64MiB (nccl-tests' row 67107840B)");
  CHECK(options_for_trace(judged, grouped, "nccl-tests").min_bytes == 67107840);  // twice is once
  CHECK(judged_from_text(options) == "64MiB");
}

TEST_CASE("a time line through exact costs gives back their latency and bandwidth") {
  // 50 us plus 10 GB/s, at 1 KiB .. 1 GiB: the fit recovers both exactly, whatever the weights.
  std::vector<TimedSize> points;
  for (std::uint64_t bytes = 1024; bytes <= (1ull << 30); bytes *= 4) points.push_back({bytes, 50e-6 + static_cast<double>(bytes) / 10e9});
  const std::optional<TimeLine> line = fit_time_line(points);
  REQUIRE(line);
  CHECK(line->latency_s == doctest::Approx(50e-6).epsilon(1e-9));
  CHECK(line->bytes_per_s == doctest::Approx(10e9).epsilon(1e-9));
  // One size, times falling with the size, or a line through the origin's far side are no cost model.
  CHECK_FALSE(fit_time_line({{1024, 1e-3}, {1024, 2e-3}}));
  CHECK_FALSE(fit_time_line({{1024, 2e-3}, {4096, 1e-3}}));
  CHECK_FALSE(fit_time_line({{1u << 20, 1e-4}, {2u << 20, 3e-4}}));  // latency -100 us
}

TEST_CASE("regimes follow what NCCL ran, and each says whether latency or bandwidth is missing") {
  // Tree/LL at 1, 2, 4 KiB, then Ring/Simple at 1..8 MiB. Measured: 20 us + 1 GB/s, then 300 us + 5 GB/s;
  // simulated: the same tree, a ring with 100 us and 5 GB/s. Two sizes of a third regime are too few.
  const auto row = [](std::uint64_t bytes, const char* ran, double measured_s, double simulated_s) {
    ComparedSize size{"8-8", "block", 16, bytes, measured_s, simulated_s};
    size.nccl_ran = ran;
    return size;
  };
  std::vector<ComparedSize> rows;
  for (std::uint64_t kib : {4, 1, 2}) {  // out of order: taken in size order
    const double t = 20e-6 + static_cast<double>(kib << 10) / 1e9;
    rows.push_back(row(kib << 10, "Tree/LL", t, t));
  }
  for (std::uint64_t mib : {1, 2, 4, 8}) {
    const double bytes = static_cast<double>(mib << 20);
    rows.push_back(row(mib << 20, "Ring/Simple", 300e-6 + bytes / 5e9, 100e-6 + bytes / 5e9));
  }
  rows.push_back(row(16u << 20, "NVLSTree/Simple", 1e-3, 1e-3));
  rows.push_back(row(32u << 20, "NVLSTree/Simple", 2e-3, 2e-3));
  const std::vector<RegimeSplit> regimes = split_by_regime(rows);
  REQUIRE(regimes.size() == 2);
  CHECK(regimes[0].ran == "Tree/LL");
  CHECK(regimes[0].case_label == "8-8 block");
  CHECK(regimes[0].from_bytes == 1024);
  CHECK(regimes[0].to_bytes == 4096);
  CHECK(regimes[0].simulated.latency_s == doctest::Approx(regimes[0].measured.latency_s));
  CHECK(regimes[1].ran == "Ring/Simple");
  CHECK(regimes[1].sizes == 4);
  CHECK(regimes[1].measured.latency_s == doctest::Approx(300e-6));
  CHECK(regimes[1].simulated.latency_s == doctest::Approx(100e-6));
  CHECK(regimes[1].simulated.bytes_per_s == doctest::Approx(regimes[1].measured.bytes_per_s));
  CHECK(split_by_regime(rows, 5).empty());  // no regime of five sizes
}

TEST_CASE("each regime's error in one sentence: a per-call latency the simulation misses, and the rate only where it is measured") {
  // p4d-like Ring/Simple sizes, 1 MiB to 1 GiB: the run pays 2.6 ms per call where the simulation
  // pays 40 us; rates 10 and 10.9 GB/s (+9%).
  RegimeSplit bandwidth{"8-8 block", "Ring/Simple", 16, 1u << 20, 1u << 30, 11, {2.64e-3, 10e9}, {40e-6, 10.9e9}};
  CHECK_FALSE(latency_bound(bandwidth));
  CHECK(regime_verdict(bandwidth) == "each call pays 2.6 ms the simulation does not; the rate is within 9%");
  CHECK(regime_needs_calibration(bandwidth));
  // 8 B - 4 KiB: at 4 KiB the bytes take 0.4 us of a 30 us call, so the fitted rate (off by 10x) says nothing.
  RegimeSplit latency{"8-8 block", "Tree/LL", 16, 8, 4096, 10, {30e-6, 10e9}, {29e-6, 100e9}};
  CHECK(latency_bound(latency));
  CHECK(regime_verdict(latency) == "the per-call latency matches (30 us measured, 29 us simulated); the rate is not measured at "
                                   "these latency-bound sizes");
  CHECK_FALSE(regime_needs_calibration(latency));
  RegimeSplit slow{"4-4 block", "", 8, 1u << 20, 1u << 28, 9, {20e-6, 10e9}, {30e-6, 5e9}};
  CHECK(regime_verdict(slow) == "the simulation charges each call 10 us the run does not pay; the simulated rate is 50% below the measured one");
}

TEST_CASE("a suite's collective is simulated by the scenario's algorithm, by NCCL's choice for NCCL's, else not, with the reason") {
  std::string why;
  CHECK(suite_algorithm("nccl_ring", Collective::all_reduce, why) == std::optional<std::string>("nccl_ring"));
  CHECK(suite_algorithm("nccl_ring", Collective::all_gather, why) == std::optional<std::string>("nccl_ring"));
  CHECK(suite_algorithm("ring", Collective::reduce_scatter, why) == std::optional<std::string>("ring"));
  // NCCL's tree has no all-gather: NCCL's choice (its ring) runs it.
  CHECK(suite_algorithm("nccl_tree", Collective::all_gather, why) == std::optional<std::string>("nccl"));
  CHECK(why.empty());
  CHECK(suite_algorithm("ring", Collective::alltoall, why) == std::nullopt);
  CHECK(why == "algorithm ring has no version for collective alltoall (its algorithms: pairwise, linear, nccl_p2p, nccl)");
  CHECK(suite_algorithm("rabenseifner", Collective::all_gather, why) == std::nullopt);
  CHECK(why == "algorithm rabenseifner has no version for collective all_gather (its algorithms: ring, nccl_ring, nccl, nccl_pat, nccl_nvls)");
}
