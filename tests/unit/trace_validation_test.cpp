#include "../../sim/validate/trace_validation.h"

#include <cmath>
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
