#include "../../sim/analysis/placement_analysis.h"

#include <doctest/doctest.h>

using namespace ringsim;

TEST_CASE("analyze_placement with cyclic 2-2 on two 1 Gbit/s nodes puts 2 ring edges on each NIC direction") {
  const std::string file = RINGSIM_SOURCE_DIR "/tests/cli/pair.json";
  const Platform platform = load_platform(file);
  PlacementAnalysisRequest request;
  request.placement = {{2, 2}, RankOrder::cyclic};
  request.sizes = {1u << 20, 64u << 20};
  request.platform_file = request.model_where = file;
  const PlacementAnalysis analysis = analyze_placement(platform, ModelSettings{}, request);

  CHECK(analysis.hosts.size() == 4);
  CHECK(analysis.nodes_visited == std::vector<std::string>{"host0", "host1", "host0", "host1"});
  CHECK(analysis.bottleneck.ring_edges == 2);
  CHECK(analysis.bottleneck.bandwidth_Bps == doctest::Approx(1e9 / 8));
  CHECK_FALSE(analysis.optimized);
  REQUIRE(analysis.predicted.size() == 2);
  // 2(N-1) steps each move S/N twice through a 1 Gbit/s NIC direction; latency and reductions add
  // well under a millisecond. The golden output (tests/cli/analyze.tesh) prints 1610691.32 us.
  const double S = 64u << 20, bandwidth_term = 2 * 3 * (S / 4 * 2 / (1e9 / 8));
  const double time = analysis.predicted[1].time_s;
  CHECK(analysis.predicted[1].bytes == 64u << 20);
  CHECK(time > bandwidth_term);
  CHECK(time < bandwidth_term + 1e-3);
  CHECK(time == doctest::Approx(1.61069132).epsilon(1e-8));
}

TEST_CASE("analyze_placement with the optimized order, never slower than its cyclic and block starts") {
  const std::string file = RINGSIM_SOURCE_DIR "/tests/cli/pair.json";
  PlacementAnalysisRequest request;
  request.placement = {{2, 2}, RankOrder::cyclic};
  request.optimized = true;
  request.sizes = {64u << 20};
  request.platform_file = request.model_where = file;
  const PlacementAnalysis analysis = analyze_placement(load_platform(file), ModelSettings{}, request);
  REQUIRE(analysis.optimized);
  CHECK(analysis.optimized->bytes == 64u << 20);
  CHECK(analysis.optimized->time_s <= analysis.optimized->cyclic_time_s);
  CHECK(analysis.optimized->time_s <= analysis.optimized->block_time_s);
  CHECK(analysis.predicted[0].time_s == doctest::Approx(analysis.optimized->time_s));
}
