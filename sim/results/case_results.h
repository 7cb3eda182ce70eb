// Results of simulated (or measured) cases (results_document.h writes them as the results JSON).
#pragma once

#include "../model/cost_parameters.h"
#include "../model/model_settings.h"
#include "../model/placement.h"
#include "../nccl/nccl_plan.h"
#include "../platform/cluster_layout.h"
#include "../rank/collective_catalog.h"
#include "../rank/rank_report.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// A case's ranks in ring order (rank r sends to r + 1 mod N): the topology node and the platform host
// (rank slot) of each. Found once where the case is planned (planned_case); whatever runs or explains
// the case reads it here.
struct CaseRing {
  std::vector<int> nodes;
  std::vector<std::string> hosts;
};

struct SimulationCase {
  PlacementSpec placement;
  std::string algorithm;
  std::string engine = "smpi";  // what simulated the case: "smpi", "s4u" or "maestro" (model key "engine")
  CaseRing ring = {};           // empty until planned
  // NCCL's algorithms: NCCL's view of the case, made once where the case is planned (simulated_case.h);
  // shared by the copies of the case (jobs, results). Null for the others and until planned.
  std::shared_ptr<const NcclPlan> nccl = nullptr;
  Collective collective = Collective::all_reduce;  // what the algorithm computes (scenario key "collectives")
};

// ALGORITHM, or "COLLECTIVE ALGORITHM" (SEPARATOR between) for a collective other than all_reduce:
// every name of a case shows it, so all_reduce's names stay as they were.
std::string algorithm_label(const SimulationCase& spec, std::string_view separator = " ");

// The case of PLACEMENT and ALGORITHM run by ENGINE, its ring laid on LAYOUT. Precondition: the
// placement fits the layout (and an optimized order has been searched).
SimulationCase planned_case(const PlacementSpec& placement, const std::string& algorithm, const std::string& engine,
                            const ClusterLayout& layout, Collective collective = Collective::all_reduce);

// SPEC's NCCL plan: the one made where it was planned, or for a case planned without one (a measurement,
// a result read back) one made now under MODEL. Null unless SPEC runs one of NCCL's algorithms.
std::shared_ptr<const NcclPlan> nccl_plan_of(const SimulationCase& spec, const ModelSettings& model);

struct SizeResult {
  std::uint64_t bytes = 0;
  std::vector<double> times_s;  // slowest rank's time per timed iteration
  std::optional<long long> wrong;  // nullopt: buffers were not checked
  std::optional<TrafficSummary> traffic = std::nullopt;  // nullopt: not counted (the library's allreduce)
  std::optional<double> closed_form_s = std::nullopt;    // algorithm_costs.h, when it applies to the case
  std::optional<std::string> nccl_ran = std::nullopt;   // NCCL's algorithms: what ran, "Tree/Simple" (nccl_choice.h)

  double median_s() const;
  double min_s() const;
  double max_s() const;
};

struct CaseResult {
  SimulationCase spec;
  int ranks = 0;
  std::vector<SizeResult> sizes;
  std::optional<CostParameters> cost_model = std::nullopt;  // compact topologies only (case_costs.h)
};

// Where a case's name is shown: each place keeps the length it can afford.
enum class CaseNaming {
  table,      // "4-3-1 block ring": the tables and the comparison
  finding,    // "4-3-1 block", the algorithm added when not the ring; "32x1 block" for over 4 nodes of one count
  progress,   // "4-3-1 block ring"; "256 ranks on 32 nodes block ring" for a placement over 32 characters
  directory,  // "4-3-1-block-ring"; "256ranks-32nodes-block-ring" likewise (file names have a length limit)
  legend,     // "4-3-1 block ring"; "32 nodes block ring" for a placement over 16 characters (report legends)
};

// The name of the case SPEC where NAMING says; every name of a case is made here.
std::string case_name(const SimulationCase& spec, CaseNaming naming);

// nccl-tests' definitions: algbw = S/t; busbw = algbw * 2(n-1)/n for allreduce, algbw x
// busbw_factor for the others (collective_catalog.h). GB/s = 1e9 B/s.
double algbw_GBps(std::uint64_t bytes, double time_s);
double busbw_GBps(std::uint64_t bytes, double time_s, int ranks, Collective collective = Collective::all_reduce);

}  // namespace ringsim
