// The --nodes list the launcher writes and the rank program reads (sim/rank/rank_nodes.h).
#include "../../sim/rank/rank_nodes.h"

#include <doctest/doctest.h>

#include <numeric>

using ringsim::node_list_text;
using ringsim::parse_node_list;

namespace {

std::vector<int> parsed(const std::string& text, std::size_t max_ranks) {
  std::vector<int> nodes;
  const std::string error = parse_node_list(text, max_ranks, nodes);
  REQUIRE_MESSAGE(error.empty(), error);
  return nodes;
}

}  // namespace

TEST_CASE("node lists: block, one rank per node and cyclic placements have their compact spelling") {
  CHECK(node_list_text({0, 0, 0, 0, 1, 1, 1, 2}) == "0x4,1x3,2");
  std::vector<int> one_per_node(4096);
  std::iota(one_per_node.begin(), one_per_node.end(), 0);
  CHECK(node_list_text(one_per_node) == "0-4095");
  CHECK(node_list_text({0, 1, 0, 1}) == "0,1,0,1");
  CHECK(node_list_text({0, 1, 2, 0, 1, 2, 0, 1}) == "0-2,0-2,0,1");
  CHECK(node_list_text({3}) == "3");
  CHECK(node_list_text({}) == "");
}

TEST_CASE("node lists: reading gives back what was written") {
  const std::vector<std::vector<int>> cases = {
      {0, 0, 0, 0, 1, 1, 1, 2}, {0, 1, 0, 1}, {0, 1, 2, 0, 1, 2, 0, 1}, {5, 4, 3, 3, 7, 8, 9, 10, 10}, {2}, {0, 1}};
  for (const auto& nodes : cases) {
    CAPTURE(node_list_text(nodes));
    CHECK(parsed(node_list_text(nodes), nodes.size()) == nodes);
  }
  CHECK(parsed("0-3,1x2", 6) == std::vector<int>{0, 1, 2, 3, 1, 1});
}

TEST_CASE("node lists: bad items and more ranks than run are errors") {
  std::vector<int> nodes;
  for (const char* bad : {"", "a", "1,", ",1", "3-1", "0x0", "0x", "x2", "-1", "1-", "0x2x2", "1.5"}) {
    CAPTURE(bad);
    CHECK(parse_node_list(bad, 8, nodes).find("--nodes takes") == 0);
  }
  CHECK(parse_node_list("0x4,1x5", 8, nodes) == "--nodes lists more ranks than the 8 that run");
  CHECK(parse_node_list("0x99999999999", 8, nodes).find("--nodes takes") == 0);  // does not fit an int
  CHECK(parse_node_list("0-2000000000", 8, nodes) == "--nodes lists more ranks than the 8 that run");
}
