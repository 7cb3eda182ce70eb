// NCCL's view of a case (sim/nccl/nccl_plan.h) is made once, where the case is planned, and read by
// the rank program's arguments and by the closed forms: a counter of plans made holds it.
#include "../../sim/analysis/case_costs.h"
#include "../../sim/analysis/topology_graph.h"
#include "../../sim/cases/case_report.h"
#include "../../sim/cases/simulated_case.h"
#include "../../sim/nccl/nccl_plan.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// 10 nodes of 8 H100 with a NIC beside each GPU, under the model made for NCCL, as variant_plan.cpp
// prepares a scenario's model.
Scenario h100_scenario(const Topology& topology) {
  Scenario scenario;
  scenario.file = "plan.json";
  scenario.placements = {PlacementSpec{{8, 8}}, PlacementSpec{{4, 4, 4, 4}}, PlacementSpec{{1, 1}}};
  scenario.algorithms = {"ring", "nccl_ring", "nccl_tree", "nccl"};
  scenario.sizes = {64u << 10, 4u << 20, 1u << 30};
  scenario.model.network = "NCCL";
  scenario.model.nccl = NcclSettings{};
  scenario.model.nccl->set_version({2, 20});
  scenario.model.adopt_topology_gpus(topology);
  scenario.model.nccl_facts = nccl_topology_facts(topology);
  return scenario;
}

}  // namespace

TEST_CASE("NCCL's plan of a case is made once: planning, the rank program's arguments and the closed forms share it") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  const Scenario scenario = h100_scenario(topology);
  const ClusterLayout layout = layout_of(topology);
  TopologyRoutes routes(topology, PlatformModel{});
  for (const PlacementSpec& placement : scenario.placements)
    for (const std::string& algorithm : scenario.algorithms) {
      CAPTURE(placement.label());
      CAPTURE(algorithm);
      const std::size_t before = nccl_plans_made();
      const SimulationCase spec = plan_simulated_case(scenario, placement, algorithm, layout);
      const auto arguments = rank_program_arguments(scenario, spec, "report.json", "", "progress");
      std::vector<CaseResult> results{CaseResult{spec, placement.total_ranks(), {}}};
      for (std::uint64_t bytes : scenario.sizes) results[0].sizes.push_back(SizeResult{bytes, {1e-3}, 0});
      add_cost_models(results, topology, routes, scenario.model);
      const bool nccl = algorithm != "ring";
      CHECK(nccl_plans_made() - before == (nccl ? 1u : 0u));
      CHECK((spec.nccl != nullptr) == nccl);
      CHECK(results[0].sizes[2].nccl_ran.has_value() == nccl);
      if (nccl) CHECK(std::find(arguments.begin(), arguments.end(), "--nccl-protocols") != arguments.end());
    }
}

TEST_CASE("NCCL's plan: nccl on two H100 nodes picks NVLS trees at 1 GiB and says what each engine must do") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  const Scenario scenario = h100_scenario(topology);
  const auto plan = plan_nccl_case(scenario.model, PlacementSpec{{8, 8}}, "nccl");
  REQUIRE(plan);
  CHECK(plan->request == NcclRequest::choice);
  CHECK(nccl_choice_text(plan->choice_at(1u << 30)) == "NVLSTree/Simple");
  REQUIRE(plan->nvls);
  CHECK(plan->nvls->efficiency == doctest::Approx(0.85));
  CHECK(plan->nvls->latency_s == doctest::Approx(23e-6));  // 2.18-2.20's NVLS latency (tuning.cc)
  CHECK(plan->rails == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(plan->paces_slices());
  CHECK_FALSE(plan_nccl_case(scenario.model, PlacementSpec{{8, 8}}, "ring"));
  CHECK(nccl_request_of("nccl_nvls_tree") == NcclRequest::nvls_tree);
  CHECK_FALSE(nccl_request_of("rabenseifner"));
}

TEST_CASE("NCCL's plan: NVLS all-gather and reduce-scatter on one H100 node, priced per release as tuning.cc prices them") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  Scenario scenario = h100_scenario(topology);
  const std::uint64_t bytes = 1u << 30;
  for (Collective collective : {Collective::all_gather, Collective::reduce_scatter}) {
    CAPTURE(collective_name(collective));
    // 2.29: 8 NVLS channels of 40 GB/s; algbw = 8 x 40 x 0.85 x 7/8 x 7/8 = 208.25 GB/s, latency 25 us.
    scenario.model.nccl->set_version({2, 29});
    auto plan = plan_nccl_case(scenario.model, PlacementSpec{{8}}, "nccl_nvls", collective);
    REQUIRE(plan);
    REQUIRE(plan->nccl_case);
    CHECK(plan->nccl_case->nvls_channels == 8);
    CHECK(plan->nccl_case->nvls_channel_Bps == doctest::Approx(40e9));
    NcclChoice nvls = plan->choice_at(bytes);
    CHECK(nccl_choice_text(nvls) == "NVLS/Simple");
    CHECK(nvls.prediction.algbw_Bps == doctest::Approx(208.25e9));
    CHECK(nvls.prediction.time_s == doctest::Approx(25e-6 + bytes / 208.25e9));
    REQUIRE(plan->nvls);
    CHECK(plan->nvls->efficiency == doctest::Approx(0.85));
    // The formulas of the other eras on the same channels (C x B = 320 GB/s, N = 8).
    const std::pair<NcclVersion, double> eras[] = {{{2, 20}, 320e9 * 5 / 6}, {{2, 23}, 320e9}, {{2, 27}, 320e9 * 7 / 8}};
    for (const auto& era : eras) {
      const NcclVersion version = era.first;
      const double expected = era.second;
      CAPTURE(version.text());
      scenario.model.nccl->set_version(version);
      plan = plan_nccl_case(scenario.model, PlacementSpec{{8}}, "nccl_nvls", collective);
      REQUIRE(plan);
      REQUIRE(plan->nccl_case);
      const double channels_Bps = plan->nccl_case->nvls_channels * plan->nccl_case->nvls_channel_Bps;
      nvls = plan->choice_at(bytes);
      CHECK(nvls.algorithm == NcclAlgorithmKind::nvls);
      CHECK(nvls.prediction.algbw_Bps == doctest::Approx(expected / 320e9 * channels_Bps));
    }
    // 2.18 has no NVLS for these two: no model time, and nccl runs the ring.
    scenario.model.nccl->set_version({2, 18});
    plan = plan_nccl_case(scenario.model, PlacementSpec{{8}}, "nccl_nvls", collective);
    REQUIRE(plan);
    CHECK(plan->choice_at(bytes).prediction.time_s == -1);
    plan = plan_nccl_case(scenario.model, PlacementSpec{{8}}, "nccl", collective);
    REQUIRE(plan);
    CHECK(plan->choice_at(bytes).algorithm == NcclAlgorithmKind::ring);
    CHECK_FALSE(plan->nvls);
    // Across nodes NVLS needs CollNet (busBw 0 in tuning.cc): nccl runs the ring.
    scenario.model.nccl->set_version({2, 29});
    plan = plan_nccl_case(scenario.model, PlacementSpec{{8, 8}}, "nccl", collective);
    REQUIRE(plan);
    CHECK(plan->choice_at(bytes).algorithm == NcclAlgorithmKind::ring);
    CHECK_FALSE(plan->nvls);
  }
}

TEST_CASE("NCCL's plan: nccl under all-gather on one H100 node keeps NCCL 2.29's ring, faster in NCCL's model at every size") {
  // NVLS's 208.25 GB/s and 25 us against the ring's N/(N-1) x bus: the ring's model time is the lower
  // from 64 KiB to 16 GiB, as the public 1 x 8 H100 suite's all-gather (busbw up to 362 GB/s, below
  // NVLink's 370.8 a ring can reach) suggests NCCL ran.
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  Scenario scenario = h100_scenario(topology);
  scenario.model.nccl->set_version({2, 29});
  const auto plan = plan_nccl_case(scenario.model, PlacementSpec{{8}}, "nccl", Collective::all_gather);
  REQUIRE(plan);
  REQUIRE(plan->nccl_case);
  REQUIRE(plan->nvls);  // NVLS is in the running: the rank program gets its efficiency and latency
  for (std::uint64_t bytes : {std::uint64_t{64} << 10, std::uint64_t{64} << 20, std::uint64_t{1} << 34}) {
    CAPTURE(bytes);
    const NcclChoice choice = plan->choice_at(bytes);
    CHECK(choice.algorithm == NcclAlgorithmKind::ring);
    CHECK(choice.prediction.time_s < nccl_nvls_copy_time(*plan->nccl_case, bytes).time_s);
  }
  CHECK(plan->choice_at(std::uint64_t{1} << 34).prediction.time_s == doctest::Approx(41788.8e-6).epsilon(1e-4));
}
