// The mechanisms that can make an NCCL run slower than the hardware its topology describes, each a
// change of typed topology or model values (`ringsim validate --explain` simulates each one still in
// play and ranks them against the measured times: run_diagnosis.h). Each names the NCCL INFO line that
// confirms or excludes it; the run's own INFO lines (nccl_run_facts.h) rule candidates in or out.
// The far socket (a NIC on the other CPU, staging over the inter-socket link) is not a candidate: the
// compact topology has no inter-socket link (a GPU without a NIC beside it reaches one across the
// host at no cost of its own), so the change could not be simulated.
#pragma once

#include "../model/model_settings.h"
#include "../platform/topology.h"
#include "nccl_run_facts.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

enum class MechanismId { half_nics, gdr_off, two_channels, oversubscribed_switch, pxn_off, per_call_cost, rate_ceiling };

// Whether ID's size is fitted to the measured times rather than simulated as a change of the hardware
// (per_call_cost, rate_ceiling: run_diagnosis.h).
constexpr bool fitted_to_the_log(MechanismId id) { return id == MechanismId::per_call_cost || id == MechanismId::rate_ceiling; }

struct CandidateMechanism {
  MechanismId id;
  std::string_view name;      // "half the NICs"
  std::string_view change;    // what is changed: "nics per node halved"
  std::string_view confirm;   // the INFO line or setting that would confirm it
  std::string_view sentence;  // what it means, said when it explains the run
};

// Every candidate, in a fixed order.
const std::vector<CandidateMechanism>& candidate_mechanisms();
const CandidateMechanism& candidate_mechanism(MechanismId id);

// What the log's INFO lines say of a candidate: nothing, that it holds, or that it does not.
enum class LogStanding { silent, confirmed, excluded };

struct CandidateStanding {
  const CandidateMechanism* candidate = nullptr;
  bool applicable = true;  // false: the change is none on this topology and model (REASON says why)
  LogStanding log = LogStanding::silent;
  std::string reason;      // why not applicable, or the INFO-line fact that confirms or excludes it

  bool in_play() const { return applicable && log != LogStanding::excluded; }
};

// Each candidate against TOPOLOGY (as the scenario simulates it, the log's facts adopted), MODEL and
// the log's FACTS (null: the trace has no NCCL INFO lines). Unless the run CROSSES_NODES, the
// candidates that change only the network between nodes are not applicable.
std::vector<CandidateStanding> candidate_standings(const Topology& topology, const ModelSettings& model,
                                                   const NcclRunFacts* facts, bool crosses_nodes = true);

// The candidate's change applied to TOPOLOGY and MODEL. The candidates fitted to the log are no change
// of either: their cost or ceiling is fitted to the measured times and applied to the hardware's
// (run_diagnosis.h).
void apply_mechanism(MechanismId id, Topology& topology, ModelSettings& model);

}  // namespace ringsim
