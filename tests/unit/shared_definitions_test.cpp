// Definitions that live in one place and are used in several: the median, a case's names and ring, the
// ring's chunk schedule. The expected strings are what each user prints.
#include "../../sim/common/statistics.h"
#include "../../sim/rank/ring_schedule.h"
#include "../../sim/results/case_results.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <set>

using namespace ringsim;

TEST_CASE("median: the middle value, the mean of the two middle ones, 0 for none") {
  CHECK(median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(median({4.0, 1.0, 2.0, 3.0}) == 2.5);
  CHECK(median({7.0}) == 7.0);
  CHECK(median({}) == 0.0);
}

TEST_CASE("a planned case carries its ring: the node and host of every rank, in rank order") {
  ClusterLayout layout;
  layout.nodes = {{"a", {"a-gpu0", "a-gpu1"}}, {"b", {"b-gpu0", "b-gpu1"}}};
  const SimulationCase cyclic = planned_case({{2, 1}, RankOrder::cyclic}, "ring", "s4u", layout);
  CHECK(cyclic.engine == "s4u");
  CHECK(cyclic.ring.nodes == std::vector<int>{0, 1, 0});
  CHECK(cyclic.ring.hosts == std::vector<std::string>{"a-gpu0", "b-gpu0", "a-gpu1"});
  PlacementSpec optimized{{2, 2}, RankOrder::optimized};
  optimized.optimized_nodes = {1, 0, 0, 1};
  const SimulationCase searched = planned_case(optimized, "ring", "smpi", layout);
  CHECK(searched.ring.nodes == std::vector<int>{1, 0, 0, 1});
  CHECK(searched.ring.hosts == std::vector<std::string>{"b-gpu0", "a-gpu0", "a-gpu1", "b-gpu1"});
}

TEST_CASE("case names: one function, the form each place has always shown") {
  const SimulationCase small{{{4, 3, 1}, RankOrder::block}, "ring"};
  CHECK(case_name(small, CaseNaming::table) == "4-3-1 block ring");
  CHECK(case_name(small, CaseNaming::finding) == "4-3-1 block");
  CHECK(case_name(small, CaseNaming::progress) == "4-3-1 block ring");
  CHECK(case_name(small, CaseNaming::directory) == "4-3-1-block-ring");
  CHECK(case_name(small, CaseNaming::legend) == "4-3-1 block ring");
  const SimulationCase tree{{{2, 2}, RankOrder::cyclic}, "hierarchical"};
  CHECK(case_name(tree, CaseNaming::finding) == "2-2 cyclic hierarchical");

  // 32 nodes of 8 ranks: "8-8-...-8" is 63 characters.
  const SimulationCase wide{{std::vector<int>(32, 8), RankOrder::block}, "ring"};
  CHECK(case_name(wide, CaseNaming::table) == fmt::format("{} block ring", wide.placement.ranks_text()));
  CHECK(case_name(wide, CaseNaming::finding) == "32x8 block");
  CHECK(case_name(wide, CaseNaming::progress) == "256 ranks on 32 nodes block ring");
  CHECK(case_name(wide, CaseNaming::directory) == "256ranks-32nodes-block-ring");
  CHECK(case_name(wide, CaseNaming::legend) == "32 nodes block ring");
  // Five nodes of one count are already "5x1" in findings; 17 characters make a legend say "nodes".
  const SimulationCase five{{{1, 1, 1, 1, 1}, RankOrder::block}, "ring"};
  CHECK(case_name(five, CaseNaming::finding) == "5x1 block");
  CHECK(case_name(five, CaseNaming::legend) == "1-1-1-1-1 block ring");
  const SimulationCase nine{{{1, 1, 1, 1, 1, 1, 1, 1, 2}, RankOrder::block}, "ring"};
  CHECK(case_name(nine, CaseNaming::finding) == "1-1-1-1-1-1-1-1-2 block");
  CHECK(case_name(nine, CaseNaming::legend) == "9 nodes block ring");
}

TEST_CASE("ring schedule: each step a rank receives what its left neighbour sends, and every chunk ends complete everywhere") {
  for (int n = 1; n <= 17; ++n) {
    CAPTURE(n);
    // contributions[r][c]: the ranks whose input rank r's copy of chunk c sums.
    std::vector<std::vector<std::set<int>>> contributions(n, std::vector<std::set<int>>(n));
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) contributions[r][c] = {r};
    for (bool reduce : {true, false})
      for (int step = 0; step + 1 < n; ++step) {
        const auto before = contributions;
        for (int r = 0; r < n; ++r) {
          const int left = (r - 1 + n) % n;
          const int chunk = ring_recv_chunk(r, step, reduce, n);
          REQUIRE(chunk == ring_send_chunk(left, step, reduce, n));
          if (reduce) contributions[r][chunk].insert(before[left][chunk].begin(), before[left][chunk].end());
          else contributions[r][chunk] = before[left][chunk];
        }
      }
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) CHECK(contributions[r][c].size() == static_cast<std::size_t>(n));
  }
}
