#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/analysis/algorithm_costs.h"
#include "../../sim/analysis/collective_costs.h"
#include "../../sim/rank/algorithm_catalog.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// Round numbers so every term of a formula can be checked on its own.
constexpr CostParameters kAlphaOnly{1, 0, 0}, kBetaOnly{0, 1, 0}, kGammaOnly{0, 0, 1};

double cost(std::string_view algorithm, int ranks, std::uint64_t bytes, const CostParameters& p) {
  const auto time = closed_form_time_s(algorithm, ranks, bytes, p);
  REQUIRE(time.has_value());
  return *time;
}

}  // namespace

TEST_CASE("closed forms: the ring moves 2(p-1)/p n in 2(p-1) steps and adds (p-1)/p n") {
  CHECK(cost("ring", 8, 800, kAlphaOnly) == doctest::Approx(14));
  CHECK(cost("ring", 8, 800, kBetaOnly) == doctest::Approx(1400));
  CHECK(cost("ring", 8, 800, kGammaOnly) == doctest::Approx(700));
  // Two half rings and pipelined segments move the same bytes per link in the same steps.
  CHECK(cost("ring_bidir", 8, 800, {1, 1, 1}) == doctest::Approx(cost("ring", 8, 800, {1, 1, 1})));
  CHECK(cost("ring_pipelined", 8, 800, {1, 1, 0}) == doctest::Approx(cost("ring", 8, 800, {1, 1, 0})));
  // ...but a pipelined step shows one segment's addition, not a chunk's.
  CHECK(cost("ring_pipelined_64KiB", 4, 1u << 30, kGammaOnly) == doctest::Approx(3.0 * (64 << 10)));
  // With one rank per node, hierarchical is the ring among node leaders.
  CHECK(cost("hierarchical", 8, 800, {1, 1, 1}) == doctest::Approx(cost("ring", 8, 800, {1, 1, 1})));
}

TEST_CASE("closed forms: trees and recursive doubling pay whole buffers and Rabenseifner the ring's bytes") {
  // reduce_bcast: 2 ceil(lg p)(alpha + n beta) + ceil(lg p) n gamma.
  CHECK(cost("reduce_bcast", 8, 100, {1, 1, 1}) == doctest::Approx(2 * 3 * 101 + 3 * 100));
  CHECK(cost("reduce_bcast", 5, 100, kAlphaOnly) == doctest::Approx(6));
  // recursive doubling: lg p (alpha + n beta + n gamma); p = 6 folds 2 ranks: one more round in, a send out.
  CHECK(cost("recursive_doubling", 8, 100, {1, 1, 1}) == doctest::Approx(3 * 201));
  CHECK(cost("recursive_doubling", 6, 100, {1, 1, 1}) == doctest::Approx(2 * 201 + 201 + 101));
  // Rabenseifner: 2 lg p alpha + 2(p-1)/p n beta + (p-1)/p n gamma; the TRG fold adds 3 alpha + 2n beta + n/2 gamma.
  CHECK(cost("rabenseifner", 8, 800, kAlphaOnly) == doctest::Approx(6));
  CHECK(cost("rabenseifner", 8, 800, kBetaOnly) == doctest::Approx(cost("ring", 8, 800, kBetaOnly)));
  CHECK(cost("rabenseifner", 12, 800, kAlphaOnly) == doctest::Approx(6 + 3));
  CHECK(cost("rabenseifner", 12, 800, kBetaOnly) == doctest::Approx(2 * 7.0 / 8 * 800 + 1600));
  CHECK(cost("rabenseifner", 12, 800, kGammaOnly) == doctest::Approx(7.0 / 8 * 800 + 400));
}

TEST_CASE("closed forms: a parameter server's link carries (p-1) n/k each way") {
  CHECK(cost("parameter_server", 8, 100, {1, 1, 1}) == doctest::Approx(2 + 2 * 7 * 100 + 7 * 100));
  CHECK(cost("parameter_server_4", 8, 100, kBetaOnly) == doctest::Approx(2 * 7 * 25));
  // k = p: every rank serves n/p; the servers' count is capped at the ranks'.
  CHECK(cost("parameter_server_all", 8, 800, kBetaOnly) == doctest::Approx(cost("ring", 8, 800, kBetaOnly)));
  CHECK(cost("parameter_server_4", 2, 100, kBetaOnly) == doctest::Approx(cost("parameter_server_all", 2, 100, kBetaOnly)));
}

TEST_CASE("closed forms: one rank costs nothing and the library and unknown names have none") {
  for (const auto& info : kAlgorithmCatalog) {
    CAPTURE(info.name);
    const auto time = closed_form_time_s(info.name, 1, 1 << 20, {1, 1, 1});
    CHECK(time.has_value() == (info.name != "mpi"));
    if (time) CHECK(*time == 0.0);
  }
  CHECK_FALSE(closed_form_time_s("mpi", 8, 100, {1, 1, 1}).has_value());
  CHECK_FALSE(closed_form_time_s("ring_of_fire", 8, 100, {1, 1, 1}).has_value());
}

TEST_CASE("closed forms: hierarchical adds a binomial reduce and broadcast over the node's bus") {
  const CostParameters between{1, 1, 1}, inside{10, 0.5, 0};
  // 4 ranks per node: 2 rounds each way (2 x 2 x 10 alpha), 3 buffers each way over the bus, 2 additions on the path.
  CHECK(hierarchical_time_s(4, 4, 100, between, inside) ==
        doctest::Approx(40 + 2 * 3 * 100 * 0.5 + 2 * 100 + cost("ring", 4, 100, between)));
  CHECK(hierarchical_time_s(4, 1, 100, between, inside) == doctest::Approx(cost("ring", 4, 100, between)));
  CHECK(hierarchical_time_s(1, 4, 100, between, inside) == doctest::Approx(40 + 300 + 200));
}

TEST_CASE("cost parameters: alpha beta and gamma of the routes between and inside two nodes") {
  Topology topology;
  topology.name = "two";
  RackSpec rack;
  rack.name = "rack0";
  rack.switch_link = {12.5e9, 1e-6};
  for (int i = 0; i < 2; ++i) {
    NodeSpec node;
    node.name = "node" + std::to_string(i);
    node.gpus = 2;
    node.nic = {1.25e9, 1e-6};
    node.intra = {12e9, 0.5e-6};
    node.gpu_speed_flops = 1e12;
    rack.nodes.push_back(node);
  }
  topology.racks.push_back(rack);
  const CostParameters between = cost_parameters(topology, {"node0-gpu0", "node1-gpu0"});
  CHECK(between.alpha_s == doctest::Approx(3e-6));  // NIC + switch + NIC
  CHECK(between.beta_s_per_byte == doctest::Approx(1 / 1.25e9));
  CHECK(between.gamma_s_per_byte == doctest::Approx(0.25e-12));
  const auto inside = intra_node_cost_parameters(topology, {"node0-gpu0", "node0-gpu1", "node1-gpu0"});
  REQUIRE(inside.has_value());
  CHECK(inside->alpha_s == doctest::Approx(0.5e-6));
  CHECK(inside->beta_s_per_byte == doctest::Approx(1 / 12e9));
  CHECK_FALSE(intra_node_cost_parameters(topology, {"node0-gpu0", "node1-gpu0"}).has_value());
}

TEST_CASE("closed forms of the other collectives: hand-worked on alpha = 1, beta = 1, gamma = 1") {
  const CostParameters c{1, 1, 1};
  const auto time = [&](Collective collective, std::string_view algorithm, int ranks, std::uint64_t bytes) {
    return collective_time_s(collective, algorithm, ranks, bytes, c).value();
  };
  // 8 ranks, 800 bytes: 7 ring steps of a 100-byte piece (reduce-scatter also adds it).
  CHECK(time(Collective::all_gather, "ring", 8, 800) == doctest::Approx(7 * (1 + 100)));
  CHECK(time(Collective::reduce_scatter, "ring", 8, 800) == doctest::Approx(7 * (1 + 200)));
  // 5 ranks: ceil(lg 5) = 3 rounds of the whole buffer.
  CHECK(time(Collective::broadcast, "binomial", 5, 100) == doctest::Approx(3 * 101));
  CHECK(time(Collective::reduce, "binomial", 5, 100) == doctest::Approx(3 * 201));
  // 4 MiB in 1 MiB segments on 5 ranks: (5 - 2 + 4) hops of a segment.
  const double segment = 1 << 20;
  CHECK(time(Collective::broadcast, "chain", 5, 4 << 20) == doctest::Approx(7 * (1 + segment)));
  CHECK(time(Collective::broadcast, "ring", 5, 4 << 20) == doctest::Approx(7 * (1 + segment)));
  CHECK(time(Collective::reduce, "chain", 5, 4 << 20) == doctest::Approx(7 * (1 + 2 * segment)));
  // Below a segment the chain is N-1 hops of the whole buffer.
  CHECK(time(Collective::broadcast, "chain", 5, 100) == doctest::Approx(4 * 101));
  CHECK(time(Collective::alltoall, "pairwise", 8, 800) == doctest::Approx(7 * 101));
  CHECK(time(Collective::alltoall, "linear", 8, 800) == doctest::Approx(1 + 700));
  CHECK(time(Collective::sendrecv, "ring", 8, 800) == doctest::Approx(801));
  CHECK(time(Collective::alltoall, "pairwise", 1, 800) == 0.0);
  CHECK_FALSE(collective_time_s(Collective::alltoall, "ring", 8, 800, c).has_value());
  CHECK_FALSE(collective_time_s(Collective::all_reduce, "ring", 8, 800, c).has_value());
  // NCCL's ring broadcast and reduce: NCCL's own model prices them.
  CHECK_FALSE(collective_time_s(Collective::broadcast, "nccl_ring", 8, 800, c).has_value());
  CHECK_FALSE(collective_time_s(Collective::reduce, "nccl", 8, 800, c).has_value());
  // nccl-tests' busbw factors.
  CHECK(busbw_factor(Collective::all_reduce, 8) == doctest::Approx(1.75));
  CHECK(busbw_factor(Collective::all_gather, 8) == doctest::Approx(0.875));
  CHECK(busbw_factor(Collective::alltoall, 8) == doctest::Approx(0.875));
  CHECK(busbw_factor(Collective::broadcast, 8) == 1.0);
}
