// A release of NCCL is one row of values (sim/nccl/tuning/nccl_releases.h): a row made here, for a
// release that does not exist, reaches NCCL's choice per size, the closed forms and the rank program's
// arguments with nothing else changed.
#include "../../sim/analysis/case_costs.h"
#include "../../sim/analysis/topology_graph.h"
#include "../../sim/cases/case_report.h"
#include "../../sim/cases/simulated_case.h"
#include "../../sim/nccl/nccl_plan.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ringsim;

namespace {

// NCCL "2.99": the newest release with a tree 1 ms slower to start under every protocol and the
// enqueue rules of none (no tree split, NVLS's first halving at 16).
NcclRelease fictitious_release() {
  NcclRelease row = nccl_releases().back();
  row.version = {2, 99};
  for (double& latency_us : row.base_latency_us[kNcclTree]) latency_us += 1000;
  row.tree_split = {false, false, false};
  row.nvls_first_halving = 16;
  return row;
}

// What a case shows of NCCL's release: per size the choice and the closed form, and the rank
// program's arguments.
struct ReleaseEffects {
  std::vector<std::string> choices;
  std::vector<double> closed_forms_s;
  std::vector<std::string> arguments;
};

ReleaseEffects effects_of(const NcclRelease& release) {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  Scenario scenario;
  scenario.file = "release.json";
  const PlacementSpec placement{{8, 8}};
  scenario.placements = {placement};
  scenario.algorithms = {"nccl"};
  scenario.sizes = {64u << 10, 4u << 20, 1u << 30};
  scenario.model.network = "NCCL";
  scenario.model.nccl = NcclSettings{};
  scenario.model.nccl->set_version(nccl_releases().back().version);
  scenario.model.nccl->release = &release;
  scenario.model.adopt_topology_gpus(topology);
  scenario.model.nccl_facts = nccl_topology_facts(topology);

  const SimulationCase spec = plan_simulated_case(scenario, placement, "nccl", layout_of(topology));
  std::vector<CaseResult> results{CaseResult{spec, placement.total_ranks(), {}}};
  for (std::uint64_t bytes : scenario.sizes) results[0].sizes.push_back(SizeResult{bytes, {1e-3}, 0});
  TopologyRoutes routes(topology, PlatformModel{});
  add_cost_models(results, topology, routes, scenario.model);

  ReleaseEffects effects;
  REQUIRE(spec.nccl != nullptr);
  for (const SizeResult& size : results[0].sizes) {
    REQUIRE(size.closed_form_s.has_value());
    effects.closed_forms_s.push_back(*size.closed_form_s);
    effects.choices.push_back(nccl_choice_text(spec.nccl->choice_at(size.bytes)));
  }
  effects.arguments = rank_program_arguments(scenario, spec, "report.json", "", "progress");
  return effects;
}

std::string argument_after(const std::vector<std::string>& arguments, const std::string& option) {
  const auto found = std::find(arguments.begin(), arguments.end(), option);
  return found == arguments.end() || found + 1 == arguments.end() ? "" : *(found + 1);
}

}  // namespace

TEST_CASE("a release is one row: the newest row is taken for versions past it and each row for its own") {
  const std::span<const NcclRelease> rows = nccl_releases();
  REQUIRE(rows.size() >= 2);
  CHECK(&nccl_release_of({2, 99}) == &rows.back());
  for (const NcclRelease& row : rows) {
    CAPTURE(row.version.text());
    CHECK(&nccl_release_of(row.version) == &row);
  }
  CHECK(std::is_sorted(rows.begin(), rows.end(), [](const NcclRelease& a, const NcclRelease& b) { return a.version < b.version; }));
}

TEST_CASE("a fictitious release row changes NCCL's choice, the closed form and the rank program's arguments") {
  const NcclRelease fictitious = fictitious_release();
  const ReleaseEffects newest = effects_of(nccl_releases().back());
  const ReleaseEffects changed = effects_of(fictitious);
  REQUIRE(newest.choices.size() == 3);
  REQUIRE(changed.choices.size() == 3);

  // 64 KiB: the newest release runs its tree; 1 ms more to start a tree makes another the faster.
  const std::string small_newest = newest.choices[0], small_changed = changed.choices[0];
  CHECK(small_newest.rfind("Tree/", 0) == 0);
  CHECK(small_changed.rfind("Tree/", 0) != 0);
  CHECK(changed.closed_forms_s[0] != newest.closed_forms_s[0]);

  // The rank program runs what the row chooses, with the row's enqueue rules.
  const std::string algorithms_newest = argument_after(newest.arguments, "--nccl-algorithms");
  const std::string algorithms_changed = argument_after(changed.arguments, "--nccl-algorithms");
  CHECK(algorithms_newest != algorithms_changed);
  const std::string enqueue_newest = argument_after(newest.arguments, "--nccl-enqueue");
  const std::string enqueue_changed = argument_after(changed.arguments, "--nccl-enqueue");
  CHECK(enqueue_newest == nccl_enqueue_argument(nccl_enqueue_rules(nccl_releases().back(), kNcclDefaultBuffsize)));
  CHECK(enqueue_changed == nccl_enqueue_argument(nccl_enqueue_rules(fictitious, kNcclDefaultBuffsize)));
  CHECK(enqueue_changed.rfind("0,0,", 0) == 0);
  CHECK(enqueue_newest != enqueue_changed);
}
