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
