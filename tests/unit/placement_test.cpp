#include "../../sim/model/placement.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

ClusterLayout three_nodes_of_four() {
  ClusterLayout layout;
  for (int n = 0; n < 3; ++n) {
    NodeSlots node{"node" + std::to_string(n), {}};
    for (int g = 0; g < 4; ++g) node.hosts.push_back(node.name + "-gpu" + std::to_string(g));
    layout.nodes.push_back(node);
  }
  return layout;
}

}  // namespace

TEST_CASE("placement notation") {
  CHECK(parse_rank_counts("4-3-1") == std::vector<int>{4, 3, 1});
  CHECK(parse_rank_counts("8") == std::vector<int>{8});
  CHECK(parse_rank_counts("4-0-4") == std::vector<int>{4, 0, 4});
  CHECK_FALSE(parse_rank_counts("4--1"));
  CHECK_FALSE(parse_rank_counts("4-3-"));
  CHECK_FALSE(parse_rank_counts("four"));
  CHECK_FALSE(parse_rank_counts("0-0"));
  // "RxK": K nodes of R ranks.
  CHECK(parse_rank_counts("8x2-4") == std::vector<int>{8, 8, 4});
  CHECK(parse_rank_counts("1x65536") == std::vector<int>(65536, 1));
  CHECK_FALSE(parse_rank_counts("1x0"));
  CHECK_FALSE(parse_rank_counts("1x"));
  CHECK_FALSE(parse_rank_counts("x3"));
  CHECK_FALSE(parse_rank_counts("1x2x3"));
  CHECK(parse_rank_order("cyclic") == RankOrder::cyclic);
  CHECK_FALSE(parse_rank_order("random"));
}

TEST_CASE("block numbers ranks node by node and cyclic deals them while nodes have room") {
  PlacementSpec block{{4, 3, 1}, RankOrder::block};
  CHECK(node_of_ranks(block) == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 2});
  PlacementSpec cyclic{{4, 3, 1}, RankOrder::cyclic};
  CHECK(node_of_ranks(cyclic) == std::vector<int>{0, 1, 2, 0, 1, 0, 1, 0});
  PlacementSpec even{{4, 2, 2}, RankOrder::cyclic};
  CHECK(node_of_ranks(even) == std::vector<int>{0, 1, 2, 0, 1, 2, 0, 0});
  CHECK(hosts_of_ranks(cyclic, three_nodes_of_four()) ==
        std::vector<std::string>{"node0-gpu0", "node1-gpu0", "node2-gpu0", "node0-gpu1", "node1-gpu1", "node0-gpu2",
                                 "node1-gpu2", "node0-gpu3"});
}

TEST_CASE("a placement that does not fit says which node and how many slots") {
  const auto layout = three_nodes_of_four();
  CHECK_FALSE(placement_misfit({{4, 3, 1}, RankOrder::block}, layout));
  CHECK(placement_misfit({{5, 3}, RankOrder::block}, layout) ==
        "placement 5-3 puts 5 ranks on node 0 (node0), which has 4 rank slots");
  CHECK(placement_misfit({{1, 1, 1, 1}, RankOrder::block}, layout) ==
        "placement 1-1-1-1 names 4 nodes but the platform has 3");
}

TEST_CASE("ring edges on the busiest NIC direction") {
  CHECK(busiest_nic_direction_edges({{4, 2, 2}, RankOrder::block}) == 1);
  CHECK(busiest_nic_direction_edges({{4, 3, 1}, RankOrder::block}) == 1);
  CHECK(busiest_nic_direction_edges({{4, 2, 2}, RankOrder::cyclic}) == 2);
  CHECK(busiest_nic_direction_edges({{4, 3, 1}, RankOrder::cyclic}) == 3);
  CHECK(busiest_nic_direction_edges({{8}, RankOrder::block}) == 0);
  CHECK(busiest_nic_direction_edges({{1, 1}, RankOrder::block}) == 1);
}
