#include "../../sim/analysis/variant_plan.h"
#include "../../sim/cases/case_report.h"
#include "../../sim/model/scenario.h"
#include "temp_files.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ringsim;
using ringsim::testing::TempDir;

namespace {

std::string scenario_with(const std::string& extra) {
  return R"({"topology": "topo.json", "placements": ["4-2-2"], "sizes": ["1MiB"])" + extra + "}";
}

}  // namespace

TEST_CASE("the flagship scenario reads as documented") {
  const Scenario s = load_scenario(RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json");
  CHECK(s.name == "locality-4-2-2-vs-4-3-1");
  REQUIRE(s.placements.size() == 4);
  CHECK(s.placements[1].ranks_text() == "4-3-1");
  CHECK(s.placements[1].order == RankOrder::block);
  CHECK(s.placements[3].order == RankOrder::cyclic);
  CHECK(s.sizes == std::vector<std::uint64_t>{1u << 20, 4u << 20, 16u << 20, 64u << 20, 256u << 20});
  CHECK(s.topology.filename() == "seed-rack.json");
  CHECK(s.algorithms == std::vector<std::string>{"ring"});
}

TEST_CASE("scenario errors name the file and the JSON path") {
  TempDir dir;
  auto check_error = [&](const std::string& extra, const std::string& expected) {
    auto file = dir.write("s.json", scenario_with(extra));
    const std::string error = RINGSIM_ERROR_OF(load_scenario(file));
    CHECK_MESSAGE(error == file.string() + ": " + expected, error);
  };
  check_error(R"(, "algorithms": ["tree"])",
              "/algorithms/0: unknown algorithm \"tree\"; known: ring, ring_pipelined, ring_pipelined_64KiB, "
              "ring_bidir, parameter_server, parameter_server_2, parameter_server_4, parameter_server_all, "
              "reduce_bcast, recursive_doubling, rabenseifner, hierarchical, nccl_ring, nccl_tree, nccl_nvls, nccl_nvls_tree, nccl, mpi");
  check_error(R"(, "iterations": 0)", "/iterations: expected an integer from 1 to 100000, found 0");
  check_error(R"(, "model": {"network": "ns3"})",
              "/model/network: unknown network model \"ns3\"; expected one of SMPI, CM02, LV08, IB, NCCL");
  check_error(R"(, "model": {"factor": "none"})", "/model/factor: unknown key; did you mean \"factors\"?");
  check_error(R"(, "itertions": 3)", "/itertions: unknown key; did you mean \"iterations\"?");
  auto bad_size = dir.write("b.json", R"({"topology": "t.json", "placements": ["2"], "sizes": ["1MiB", "6B"]})");
  CHECK(RINGSIM_ERROR_OF(load_scenario(bad_size)) ==
        bad_size.string() + ": /sizes/1: 6 bytes is not a whole, non-empty float32 buffer: use a multiple of 4");
  auto bad_placement = dir.write("p.json", R"({"topology": "t.json", "placements": ["4-2-2", {"ranks": "4-3-1", "order": "round"}], "sizes": ["4"]})");
  CHECK(RINGSIM_ERROR_OF(load_scenario(bad_placement)) ==
        bad_placement.string() + ": /placements/1/order: unknown order \"round\"; expected \"block\", \"cyclic\" or \"optimized\"");
}

TEST_CASE("\"check\": false asks the rank program to check no size, as nccl-tests' -c 0; true by default") {
  TempDir dir;
  const auto load = [&](const std::string& extra) { return load_scenario(dir.write("c.json", scenario_with(extra))); };
  const auto limit_of = [](const Scenario& scenario) {
    SimulationCase spec;
    spec.algorithm = "ring";
    const auto arguments = rank_program_arguments(scenario, spec, "report.json", "", "progress.json");
    const auto flag = std::find(arguments.begin(), arguments.end(), "--check-limit");
    return flag == arguments.end() || flag + 1 == arguments.end() ? std::string("absent") : *(flag + 1);
  };
  const Scenario checked = load("");
  CHECK(checked.check);
  CHECK(limit_of(checked) == "absent");  // the rank program's own limit: values up to 128 MiB in all
  const Scenario unchecked = load(R"(, "check": false)");
  CHECK_FALSE(unchecked.check);
  CHECK(limit_of(unchecked) == "0");
  const auto file = dir.write("bad.json", scenario_with(R"(, "check": 0)"));
  CHECK(RINGSIM_ERROR_OF(load_scenario(file)) == file.string() + ": /check: expected true or false, found 0");
}

TEST_CASE("collectives: nccl-tests' names, all_reduce by default, each algorithm needing a version for each") {
  TempDir dir;
  const auto load = [&](const std::string& extra) { return load_scenario(dir.write("c.json", scenario_with(extra))); };
  CHECK(load("").collectives == std::vector<Collective>{Collective::all_reduce});
  CHECK(load(R"(, "collectives": ["all_gather", "reduce_scatter", "sendrecv"])").collectives ==
        std::vector<Collective>{Collective::all_gather, Collective::reduce_scatter, Collective::sendrecv});
  CHECK(load(R"(, "algorithms": ["binomial", "chain", "ring"], "collectives": ["broadcast", "reduce"])").algorithms.size() == 3);
  CHECK(load(R"(, "algorithms": ["pairwise", "linear"], "collectives": ["alltoall"])").collectives ==
        std::vector<Collective>{Collective::alltoall});
  const auto check_error = [&](const std::string& extra, const std::string& expected) {
    const auto file = dir.write("c.json", scenario_with(extra));
    const std::string error = RINGSIM_ERROR_OF(load_scenario(file));
    CHECK_MESSAGE(error == file.string() + ": " + expected, error);
  };
  check_error(R"(, "collectives": ["allgather"])",
              "/collectives/0: unknown collective \"allgather\"; known: all_reduce, all_gather, reduce_scatter, broadcast, reduce, "
              "alltoall, sendrecv");
  check_error(R"(, "collectives": ["alltoall", "alltoall"])", "/collectives/1: collective \"alltoall\" is named twice");
  check_error(R"(, "collectives": [])", "/collectives: expected a non-empty array of collectives (all_reduce, all_gather, "
                                        "reduce_scatter, broadcast, reduce, alltoall, sendrecv)");
  check_error(R"(, "algorithms": ["ring", "pairwise"], "collectives": ["alltoall"])",
              "/algorithms/0: algorithm ring has no version for collective alltoall (its algorithms: pairwise, linear, nccl_p2p, nccl)");
  check_error(R"(, "algorithms": ["binomial"])",
              "/algorithms/0: algorithm binomial has no version for collective all_reduce (its algorithms: ring, ring_pipelined, "
              "ring_pipelined_64KiB, ring_bidir, parameter_server, parameter_server_2, parameter_server_4, parameter_server_all, "
              "reduce_bcast, recursive_doubling, rabenseifner, hierarchical, nccl_ring, nccl_tree, nccl_nvls, nccl_nvls_tree, nccl, mpi)");
  check_error(R"(, "algorithms": ["nccl_tree"], "collectives": ["all_gather"])",
              "/algorithms/0: algorithm nccl_tree has no version for collective all_gather (its algorithms: ring, nccl_ring, nccl, nccl_pat, nccl_nvls)");
}

TEST_CASE("placements are checked against the platform's nodes") {
  TempDir dir;
  auto file = dir.write("s.json", R"({"topology": "t.json", "placements": ["4-2-2", "4-5"], "sizes": ["4"]})");
  const Scenario s = load_scenario(file);
  ClusterLayout layout{{{"a", {"a0", "a1", "a2", "a3"}}, {"b", {"b0", "b1", "b2", "b3"}}}};
  CHECK(RINGSIM_ERROR_OF(check_placements_fit(s, layout)).find(
            file.string() + ": /placements/0: placement 4-2-2 names 3 nodes but the platform has 2") == 0);
}

TEST_CASE("every variant is checked against the platform before any case runs: a bad second variant is named") {
  const Scenario s = load_scenario(RINGSIM_SOURCE_DIR "/tests/cli/bad-variant-scenario.json");
  const Platform platform = load_platform(s.topology);
  const std::string error = RINGSIM_ERROR_OF(plan_variants(s, platform));
  CHECK_MESSAGE(error.starts_with(s.file.string() + ": variant \"loaded\": model: background load on \"host9-nic\": "), error);
}

TEST_CASE("a plan holds each variant's scenario and routes, built once, shared with the cost models when there is no stack") {
  const Scenario s = load_scenario(RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json");
  const Platform platform = load_platform(s.topology);
  const std::vector<VariantPlan> plans = plan_variants(s, platform);
  REQUIRE(plans.size() == 2);
  CHECK(plans[0].name == "plain");
  CHECK(plans[1].scenario.name == "locality-4-2-2-vs-4-3-1 [process-stack]");
  CHECK(plans[1].scenario.model.process_stack.has_value());
  for (const VariantPlan& plan : plans) {
    REQUIRE(plan.shaped.has_value());
    REQUIRE(plan.routes != nullptr);
    REQUIRE(plan.cost_routes != nullptr);
  }
  CHECK(plans[0].cost_routes == plans[0].routes);  // no stack, no background: the same routes
  CHECK(plans[1].cost_routes != plans[1].routes);  // the cost models read the links without the stack
}
