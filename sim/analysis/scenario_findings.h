// The answer to a scenario's question in plain words: how much slower each case is than the first,
// which link or rank limits it (from the ring's embedding in the topology, ringsim analyze's model),
// and, with variants, under which model a difference appears: the mechanism that explains it.
#pragma once

#include "../model/scenario.h"
#include "../results/case_results.h"
#include "topology_graph.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct VariantRun {
  std::string name;  // empty when the scenario has no variants
  Scenario scenario;  // under the variant's model (variant_plan.h)
  std::shared_ptr<TopologyRoutes> routes;  // the platform under that model; null on SimGrid XML
  std::vector<CaseResult> results;
  // The model NCCL's algorithms ran under when it is not SCENARIO's (VariantPlan::nccl_part).
  std::optional<ModelSettings> nccl_model = std::nullopt;
};

// Sentences, one finding each, at the scenario's largest size. Bottlenecks are named where a run has
// routes: on compact topologies (their routes under each variant's model).
std::vector<std::string> scenario_findings(const Scenario& scenario, const std::vector<VariantRun>& runs);

// A finding read back (from a results JSON): the variant it is about ("" when it is about none or all),
// its sentence without the variant's tag (an answer's without "Answer, "), and whether it is an answer:
// which model makes the difference between two cases.
struct FindingParts {
  std::string variant;
  std::string sentence;
  bool answer = false;
};
FindingParts finding_parts(const std::string& finding);

// With several variants: each case's time per variant and its speed-up over the first variant.
std::string variant_table(const std::vector<VariantRun>& runs);

}  // namespace ringsim
