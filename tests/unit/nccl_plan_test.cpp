// NCCL's view of a case (sim/nccl/nccl_plan.h) is made once, where the case is planned, and read by
// the rank program's arguments and by the closed forms: a counter of plans made holds it.
#include "../../sim/analysis/case_costs.h"
#include "../../sim/analysis/topology_graph.h"
#include "../../sim/cases/case_report.h"
#include "../../sim/cases/simulated_case.h"
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/nccl/tuning/nccl_pat_costs.h"

#include <doctest/doctest.h>

#include <cmath>

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

// Where NCCL 2.29's model of 10 x 1 H100 has its ring and PAT meet (nccl_pat_costs.h), MiB: the ring's
// Simple latency 8.4 + 9 x 14 = 134.4 us (base, N-1 network hops at the tree's hop with one GPU per
// node) at 50 x 10/9 GB/s against PAT's 48 us at 37.5 GB/s: 86.4 us / (1/37.5 - 1/55.6) ns/B = 9.97e6 B.
constexpr double kCrossoverMiB = 86.4e-6 / (1 / 37.5e9 - 9 / 500e9) / (1 << 20);

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

TEST_CASE("NCCL's plan: PAT all-gather and reduce-scatter on 10 x 1 H100, priced as tuning.cc prices it, the ring above the crossover") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  Scenario scenario = h100_scenario(topology);
  const PlacementSpec ten_by_one{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
  const std::uint64_t mib = 1u << 20;
  for (Collective collective : {Collective::all_gather, Collective::reduce_scatter}) {
    CAPTURE(collective_name(collective));
    scenario.model.nccl->set_version({2, 29});
    auto plan = plan_nccl_case(scenario.model, ten_by_one, "nccl", collective);
    REQUIRE(plan);
    REQUIRE(plan->nccl_case);
    const NcclCase c = *plan->nccl_case;
    REQUIRE(c.search_channels == 1);
    REQUIRE(c.channel_bandwidth_Bps == doctest::Approx(50e9));  // one 400 Gb/s NIC per node
    REQUIRE(nccl_pat_possible(c));
    // Hand-worked from tuning.cc: latency 8 + floor(log2 10) x 14 / 3.5 + 2.8 x 10 = 48 us; algbw
    // 1 channel x 50 GB/s x 0.75 = 37.5 GB/s, taken as the algbw of the whole size.
    const NcclChoice small = plan->choice_at(mib);
    CHECK(nccl_choice_text(small) == "PAT/Simple");
    CHECK(small.prediction.latency_s == doctest::Approx(48e-6));
    CHECK(small.prediction.algbw_Bps == doctest::Approx(37.5e9));
    CHECK(small.prediction.time_s == doctest::Approx(48e-6 + 1048576 / 37.5e9));
    CHECK(plan->launch_channels_at(mib) == c.channels);  // PAT runs on every channel of the communicator
    // The crossover: where the ring's model time (Simple there) meets PAT's.
    const NcclPrediction ring = nccl_predict(c, NcclProtocol::simple, 64 * mib, nccl_function_of(collective));
    CHECK(ring.latency_s == doctest::Approx(134.4e-6));
    CHECK(ring.algbw_Bps == doctest::Approx(500e9 / 9));
    const double crossover = (ring.latency_s - 48e-6) / (1 / 37.5e9 - 1 / ring.algbw_Bps);
    CHECK(std::abs(crossover / mib / kCrossoverMiB - 1) < 1e-3);  // 9.51 MiB
    CHECK(plan->choice_at(static_cast<std::uint64_t>(crossover * 0.98)).algorithm == NcclAlgorithmKind::pat);
    CHECK(plan->choice_at(static_cast<std::uint64_t>(crossover * 1.02)).algorithm == NcclAlgorithmKind::ring);
    CHECK(plan->choice_at(32 * mib).algorithm == NcclAlgorithmKind::ring);  // the suite's smallest size
    // 2.23: x 0.85; 2.22: no PAT.
    scenario.model.nccl->set_version({2, 23});
    plan = plan_nccl_case(scenario.model, ten_by_one, "nccl", collective);
    REQUIRE(plan);
    CHECK(nccl_pat_time(*plan->nccl_case, mib).algbw_Bps == doctest::Approx(42.5e9));
    CHECK(plan->choice_at(mib).algorithm == NcclAlgorithmKind::pat);
    scenario.model.nccl->set_version({2, 22});
    plan = plan_nccl_case(scenario.model, ten_by_one, "nccl", collective);
    REQUIRE(plan);
    CHECK_FALSE(nccl_pat_possible(*plan->nccl_case));
    CHECK(plan->choice_at(mib).algorithm == NcclAlgorithmKind::ring);
    // Two GPUs on a node: no PAT.
    scenario.model.nccl->set_version({2, 29});
    plan = plan_nccl_case(scenario.model, PlacementSpec{{2, 1, 1}}, "nccl", collective);
    REQUIRE(plan);
    CHECK_FALSE(nccl_pat_possible(*plan->nccl_case));
    CHECK(plan->choice_at(mib).algorithm != NcclAlgorithmKind::pat);
  }
  // PAT is for these two only: the all-reduce never runs it.
  const auto all_reduce = plan_nccl_case(scenario.model, ten_by_one, "nccl");
  REQUIRE(all_reduce);
  CHECK(all_reduce->choice_at(mib).algorithm != NcclAlgorithmKind::pat);
}
