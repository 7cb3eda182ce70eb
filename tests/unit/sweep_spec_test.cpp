#include "../../sim/model/sweep_spec.h"
#include "../../sim/platform/cluster_layout.h"
#include "temp_files.h"

#include <doctest/doctest.h>
#include <numeric>
#include <set>
#include <tuple>

using namespace ringsim;
using ringsim::testing::TempDir;

namespace {

// M nodes of S rank slots each.
ClusterLayout uniform_layout(int nodes, int slots) {
  ClusterLayout layout;
  for (int k = 0; k < nodes; ++k) {
    NodeSlots node{"n" + std::to_string(k), {}};
    for (int g = 0; g < slots; ++g) node.hosts.push_back(node.name + "-gpu" + std::to_string(g));
    layout.nodes.push_back(node);
  }
  return layout;
}

long long binomial(long long n, long long k) {
  if (k < 0 || n < k) return 0;
  long long result = 1;
  for (long long i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}

// Compositions of N into M parts, each from 0 to S, by inclusion-exclusion over the parts above S.
long long bounded_compositions(int n, int m, int s) {
  long long count = 0;
  for (int j = 0; j <= m && j * (s + 1) <= n; ++j)
    count += (j % 2 == 0 ? 1 : -1) * binomial(m, j) * binomial(n - j * (s + 1) + m - 1, m - 1);
  return count;
}

// Partitions of N into at most M parts, each at most S (Young diagrams in an M x S box):
// fewer than M parts, or exactly M parts (remove one from each).
long long boxed_partitions(int n, int m, int s) {
  if (n == 0) return 1;
  if (n < 0 || m == 0 || s == 0) return 0;
  return boxed_partitions(n, m - 1, s) + boxed_partitions(n - m, m, s - 1);
}

std::size_t generated(const PlacementGenerator& generator, const ClusterLayout& layout, bool symmetric) {
  std::vector<int> classes(layout.nodes.size(), 0);
  if (!symmetric) std::iota(classes.begin(), classes.end(), 0);
  const auto counts = generate_rank_counts(generator, layout, classes);
  std::set<std::vector<int>> distinct(counts.begin(), counts.end());
  CHECK(distinct.size() == counts.size());
  for (const auto& placement : counts) CHECK(std::accumulate(placement.begin(), placement.end(), 0) ==
                                             (generator.ranks > 0 ? generator.ranks : generator.nodes * generator.per_node));
  return counts.size();
}

std::string sweep_with(const std::string& placements, const std::string& extra = "") {
  return R"({"topology": ")" RINGSIM_SOURCE_DIR R"(/topologies/seed-rack.json", "placements": )" + placements +
         R"(, "sizes": ["1MiB", "4MiB"])" + extra + "}";
}

ExpandedSweep expand_file(const std::filesystem::path& file) {
  const SweepSpec spec = load_sweep(file);
  std::vector<ClusterLayout> layouts;
  std::vector<Platform> platforms;
  std::vector<const Topology*> topologies;
  for (const auto& topology : spec.topologies) platforms.push_back(load_platform(topology));
  for (const auto& platform : platforms) layouts.push_back(platform.layout), topologies.push_back(&*platform.topology);
  return expand_sweep(spec, layouts, topologies);
}

}  // namespace

TEST_CASE("every placement of N ranks: bounded compositions, or boxed partitions up to symmetry") {
  const std::vector<std::tuple<int, int, int>> shapes = {{8, 4, 4}, {8, 3, 4}, {5, 5, 2}, {12, 4, 8}, {1, 6, 1}, {16, 4, 4}};
  for (const auto& shape : shapes) {
    const int ranks = std::get<0>(shape), nodes = std::get<1>(shape), slots = std::get<2>(shape);
    CAPTURE(ranks);
    CAPTURE(nodes);
    CAPTURE(slots);
    const ClusterLayout layout = uniform_layout(nodes, slots);
    PlacementGenerator every{PlacementGenerator::Kind::every_placement, ranks};
    CHECK(generated(every, layout, false) == static_cast<std::size_t>(bounded_compositions(ranks, nodes, slots)));
    CHECK(generated(every, layout, true) == static_cast<std::size_t>(boxed_partitions(ranks, nodes, slots)));
  }
  CHECK(bounded_compositions(8, 4, 4) == 85);  // the formulas themselves, counted by hand
  CHECK(boxed_partitions(8, 4, 4) == 8);       // 44 431 422 4211 332 3311 3221 2222
  PlacementGenerator capped{PlacementGenerator::Kind::every_placement, 8, 0, 2};
  CHECK(generated(capped, uniform_layout(4, 4), true) == 1);  // 2-2-2-2
  CHECK(generated(capped, uniform_layout(4, 4), false) == 1);
}

TEST_CASE("every k-node subset: binomial(M, k), one per class count up to symmetry") {
  const std::vector<std::pair<int, int>> shapes = {{8, 2}, {5, 3}, {4, 4}, {6, 1}};
  for (const auto& shape : shapes) {
    const int nodes = shape.first, k = shape.second;
    CAPTURE(nodes);
    CAPTURE(k);
    PlacementGenerator subsets{PlacementGenerator::Kind::every_subset, 0, k, 4};
    CHECK(generated(subsets, uniform_layout(nodes, 4), false) == static_cast<std::size_t>(binomial(nodes, k)));
    CHECK(generated(subsets, uniform_layout(nodes, 4), true) == 1);
  }
  // Two racks of 4 identical nodes: 2 nodes are both in rack 0, one in each, or both in rack 1.
  const Platform two_racks = load_platform(RINGSIM_SOURCE_DIR "/topologies/two-racks-4to1.json");
  const auto classes = interchangeable_node_classes(two_racks.layout, &*two_racks.topology);
  CHECK(classes == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
  PlacementGenerator pairs{PlacementGenerator::Kind::every_subset, 0, 2, 4};
  const auto counts = generate_rank_counts(pairs, two_racks.layout, classes);
  CHECK(counts == std::vector<std::vector<int>>{{4, 4}, {4, 0, 0, 0, 4}, {0, 0, 0, 0, 4, 4}});
  PlacementGenerator too_many{PlacementGenerator::Kind::every_subset, 0, 2, 5};
  CHECK(generate_rank_counts(too_many, two_racks.layout, classes).empty());
}

TEST_CASE("a sweep's cases are the product of topologies, variants, placements and algorithms") {
  TempDir dir;
  const auto file = dir.write("s.json", sweep_with(
      R"(["4-4", {"ranks": "4-3-1", "order": "cyclic"}, {"every_placement": 8, "orders": ["block", "cyclic"]}])",
      R"(, "algorithms": ["ring", "ring_bidir"], "variants": [{"name": "a"}, {"name": "b", "model": {"network": "CM02"}}],
         "model_axes": {"nic_bandwidth": ["1Gbps", "10Gbps", "25Gbps"]})"));
  const SweepSpec spec = load_sweep(file);
  REQUIRE(spec.variants.size() == 6);
  CHECK(spec.variants[0].name == "a / nic_bandwidth=1Gbps");
  CHECK(spec.variants[5].name == "b / nic_bandwidth=25Gbps");
  CHECK(spec.variants[5].model.network == "CM02");
  CHECK(*spec.variants[4].model.nic_bandwidth_Bps == doctest::Approx(10e9 / 8));
  const ExpandedSweep sweep = expand_file(file);
  // seed-rack: 3 nodes of 4; 8 ranks up to symmetry: 44 431 422 332 (4-4 and 4-3-1 cyclic repeat).
  const std::size_t placements = 2 * boxed_partitions(8, 3, 4);
  CHECK(placements == 8);
  CHECK(sweep.groups.size() == 6);
  CHECK(sweep.groups[0].scenario.placements.size() == placements);
  CHECK(sweep.cases.size() == 6 * placements * 2);
  CHECK(sweep.groups[1].scenario.name == "s [a / nic_bandwidth=10Gbps]");
  CHECK(sweep.cases[1].algorithm == 1);
  CHECK(sweep.cases[2].placement == 1);
  CHECK(sweep.cases[2 * placements].group == 1);
}

TEST_CASE("a sweep's collectives multiply its cases, innermost, and its scenarios carry them") {
  TempDir dir;
  const auto file = dir.write("c.json", sweep_with(R"(["4-4", "4-3-1"])", R"(, "algorithms": ["binomial", "chain"],
      "collectives": ["broadcast", "reduce"])"));
  const ExpandedSweep sweep = expand_file(file);
  REQUIRE(sweep.cases.size() == 2 * 2 * 2);
  CHECK(sweep.groups[0].scenario.collectives == std::vector<Collective>{Collective::broadcast, Collective::reduce});
  CHECK(sweep.cases[1].collective == 1);
  CHECK(sweep.cases[1].algorithm == 0);
  CHECK(sweep.cases[2].algorithm == 1);
  CHECK(sweep.cases[4].placement == 1);
  const auto bad = dir.write("bad.json", sweep_with(R"(["4-4"])", R"(, "collectives": ["alltoall"])"));
  CHECK(RINGSIM_ERROR_OF(load_sweep(bad)) ==
        bad.string() + ": /collectives/0: algorithm ring has no version for collective alltoall (its algorithms: pairwise, linear, nccl_p2p, nccl)");
}

TEST_CASE("sweep errors name the file and the JSON path, before anything runs") {
  TempDir dir;
  auto error_of = [&](const std::string& text) {
    const auto file = dir.write("bad.json", text);
    const std::string error = RINGSIM_ERROR_OF(expand_file(file));
    REQUIRE(error.starts_with(file.string() + ": "));
    return error.substr(file.string().size() + 2);
  };
  CHECK(error_of(sweep_with(R"(["4-4"])", R"(, "algorithm": ["ring"])")) == "/algorithm: unknown key; did you mean \"algorithms\"?");
  CHECK(error_of(sweep_with(R"(["4-4", "4-5"])")) ==
        "/placements/1: placement 4-5 puts 5 ranks on node 1 (node1), which has 4 rank slots (topology " RINGSIM_SOURCE_DIR
        "/topologies/seed-rack.json)");
  CHECK(error_of(sweep_with(R"([{"every_placement": 13}])")) ==
        "/placements/0: generates no placement: topology " RINGSIM_SOURCE_DIR "/topologies/seed-rack.json has 12 rank slots on 3 nodes");
  CHECK(error_of(sweep_with(R"([{"every_subset": 2, "ranks_per_node": 5}])")).starts_with("/placements/0: generates no placement"));
  CHECK(error_of(sweep_with(R"([{"every_placement": 8, "order": ["cyclic"]}])")) ==
        "/placements/0/order: unknown key; did you mean \"orders\"?");
  CHECK(error_of(sweep_with(R"([{"every_placement": 8, "orders": ["spiral"]}])")) ==
        "/placements/0/orders/0: unknown order \"spiral\"; expected \"block\", \"cyclic\" or \"optimized\"");
  CHECK(error_of(sweep_with(R"([{"every_placement": 8, "every_subset": 2}])")) ==
        "/placements/0: give either \"every_placement\" or \"every_subset\", not both");
  CHECK(error_of(sweep_with(R"([])")) == "/placements: expected a non-empty array of placements or generators");
  CHECK(error_of(sweep_with(R"(["4-4"])", R"(, "model_axes": {"nic_bandwith": ["1Gbps"]})")) ==
        "/model_axes/nic_bandwith: unknown key; did you mean \"nic_bandwidth\"?");
  CHECK(error_of(sweep_with(R"(["4-4"])", R"(, "model_axes": {"nic_bandwidth": []})")) ==
        "/model_axes/nic_bandwidth: expected a non-empty array of values");
  CHECK(error_of(R"({"placements": ["4"], "sizes": ["1MiB"]})") ==
        "/topology: give exactly one of \"topology\": \"FILE\" and \"topologies\": [\"FILE\", ...]");
}
