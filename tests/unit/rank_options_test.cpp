// The NCCL flags the launcher writes for the rank program (sim/rank/rank_options.h): each is read
// whole, and a malformed one is one error naming the flag and what it takes.
#include "../../sim/rank/rank_options.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

// Parses the rank program's arguments ARGS (after the required --sizes and --out) for 4 ranks.
std::string parse(std::vector<std::string> args, ringsim::RankOptions& options) {
  args.insert(args.begin(), {"ringsim-rank", "--sizes", "1024", "--out", "report.json"});
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return ringsim::parse_rank_options(static_cast<int>(argv.size()), argv.data(), 4, options);
}

}  // namespace

TEST_CASE("rank options: the handshake, the LL and LL128 pace and the tree's hops are read in microseconds and GB/s") {
  ringsim::RankOptions options;
  REQUIRE(parse({"--nccl-handshake", "4.7,5.7", "--nccl-block-rates", "1.5,9.25", "--nccl-tree-hops", "4.1,5"}, options).empty());
  CHECK(options.nccl.tree_hop_ll_s == doctest::Approx(4.1e-6));
  CHECK(options.nccl.tree_hop_ll128_s == doctest::Approx(5e-6));
  CHECK(options.nccl.handshake_intra_s == doctest::Approx(4.7e-6));
  CHECK(options.nccl.handshake_net_s == doctest::Approx(5.7e-6));
  CHECK(options.nccl.ll_bus_Bps == doctest::Approx(1.5e9));
  CHECK(options.nccl.ll128_bus_Bps == doctest::Approx(9.25e9));
}

TEST_CASE("rank options: a pair with a value missing, left over, negative or not a number is refused") {
  for (const char* bad : {"1.5", "1.5,", ",9.2", "1.5,9.2,3", "-1,2", "a,b", "1.5;9.2", "2e7,1"}) {
    CAPTURE(bad);
    ringsim::RankOptions options;
    CHECK(parse({"--nccl-block-rates", bad}, options).find("--nccl-block-rates takes LL_GBPS,LL128_GBPS") == 0);
    CHECK(parse({"--nccl-handshake", bad}, options).find("--nccl-handshake takes INTRA_US,NET_US") == 0);
    CHECK(parse({"--nccl-tree-hops", bad}, options).find("--nccl-tree-hops takes LL_US,LL128_US") == 0);
  }
}

TEST_CASE("rank options: --nccl-algorithms reads back every name the launcher writes, and refuses another") {
  ringsim::RankOptions options;
  REQUIRE(parse({"--nccl-algorithms", "Ring,Tree,NVLS,NVLSTree,PAT"}, options).empty());
  CHECK(options.nccl_algorithms == std::vector<ringsim::NcclAlgorithmKind>(ringsim::kNcclAlgorithmKinds.begin(), ringsim::kNcclAlgorithmKinds.end()));
  for (ringsim::NcclAlgorithmKind kind : ringsim::kNcclAlgorithmKinds) {
    CAPTURE(static_cast<int>(kind));
    REQUIRE(parse({"--nccl-algorithms", std::string(ringsim::nccl_algorithm_name(kind))}, options).empty());
    CHECK(options.nccl_algorithms == std::vector<ringsim::NcclAlgorithmKind>{kind});
  }
  CHECK(parse({"--nccl-algorithms", "Ring,CollNet"}, options) ==
        "--nccl-algorithms takes Ring, Tree, NVLS, NVLSTree or PAT, comma-separated (one per size)");
}
