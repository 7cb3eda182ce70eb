// NCCL's view of one case of a scenario, made once where the case is planned and read by every room
// that needs it: the engine choice (whether the rank program paces its slices), the rank program's
// arguments, NCCL's own time model and its choice per size (tables, findings, validation). Built from
// the NCCL case of the placement (NCCL's search, rails and NVLS check on the platform's facts) and what
// the rank program of the algorithm takes from it: Simple's handshake, LL128's hops, the protocols'
// pace, the tree's hops, NVLS's efficiency and latency, and the release's enqueue rules.
#pragma once

#include "tuning/nccl_choice.h"
#include "tuning/nccl_enqueue_rules.h"
#include "tuning/nccl_nvls_costs.h"
#include "tuning/nccl_pat_costs.h"
#include "tuning/nccl_p2p_rules.h"
#include "../model/algorithm_registry.h"
#include "../model/model_settings.h"
#include "../model/placement.h"
#include "../rank/collective_catalog.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ringsim {

// The NCCL case of PLACEMENT under MODEL (its "nccl" settings and the platform's facts, model.nccl_facts):
// the search sees the NICs beside the placement's ranks (nccl_rails.h); nullopt without facts (a
// hand-written SimGrid XML platform).
std::optional<NcclCase> nccl_case_of(const ModelSettings& model, const PlacementSpec& placement);

struct NcclPlan {
  NcclRequest request = NcclRequest::ring;
  NcclSettings settings;            // the model's "nccl" settings in effect
  bool nccl_network = false;        // under the model made for NCCL (network "NCCL"), not SMPI's MPI factors
  std::optional<NcclCase> nccl_case;  // nullopt on a hand-written SimGrid XML platform
  std::vector<int> rails;           // the NIC beside each rank's GPU, -1 for none (empty without facts)
  // Simple's per-slice handshake on nodes without NVLink (the rank's thread block's fence, post and the
  // peer's poll), where asked for under the model made for NCCL.
  std::optional<NcclHandshake> handshake;
  // LL128's hop latency beyond LL's, where LL128 is enabled (the maestro engine delivers each slice that much later).
  std::optional<NcclHandshake> ll128_hops;
  // LL's and LL128's pace: NCCL's bus bandwidth for each, shared by the thread blocks of the channels that run.
  std::optional<NcclBlockRates> block_rates;
  std::optional<NcclTreeHops> tree_hops;  // the tree's hops to another node under LL and LL128
  std::optional<NcclNvlsRun> nvls;        // where the case runs NVLS or its tree
  NcclEnqueueRules rules;                 // the release's tree split and NVLS chunking
  // The function NCCL's model prices: all-reduce, or the ring of all-gather and reduce-scatter.
  NcclFunction function = NcclFunction::all_reduce;
  Collective collective = Collective::all_reduce;  // what nccl-tests asked for (software_cost_of's steps and bytes)
  // alltoall and sendrecv: NCCL's point-to-point schedule (nccl_p2p_rules.h), which NCCL's model does not price.
  std::optional<NcclP2pRun> p2p;

  // Whether the rank program paces its slices in simulated time (any of the above): only the S4U and
  // maestro engines bound such waits without sleeping; under "auto" such cases take maestro.
  bool paces_slices() const;
  // What runs at BYTES: the algorithm (NCCL's pick for `nccl`) and protocol, with NCCL's own time for it
  // (time_s -1 where the model has none: no facts, or NVLS where NCCL would not run it).
  NcclChoice choice_at(std::uint64_t bytes) const;
  // The channels a call of BYTES runs on (enqueue.cc; the settings' channels without facts).
  int launch_channels_at(std::uint64_t bytes) const;
  // NCCL's software cost of a call on BYTES that runs CHOICE (choice_at's), seconds (nccl_software_costs.h):
  // under the model made for NCCL where there is a case; 0 elsewhere.
  double software_cost_of(const NcclChoice& choice, std::uint64_t bytes) const;
  // Whether NCCL's sends to another rail go through an NVLink peer beside that rail's NIC (PXN): under
  // the model made for NCCL, where the release has it and the settings leave it on.
  bool pxn() const { return nccl_network && settings.uses_pxn(); }
};

// The plan of ALGORITHM on PLACEMENT under MODEL for COLLECTIVE; nullopt unless ALGORITHM is one of NCCL's.
std::optional<NcclPlan> plan_nccl_case(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm,
                                       Collective collective = Collective::all_reduce);

// The function of NCCL's model that prices COLLECTIVE (all-to-all and send/receive are not one: all-reduce's).
NcclFunction nccl_function_of(Collective collective);

// What nccl_ring runs at BYTES under MODEL on case C: the model's protocol, or NCCL's choice under "auto"
// (Simple when there is no NCCL case to choose with).
NcclProtocol nccl_protocol_at(const ModelSettings& model, const std::optional<NcclCase>& c, std::uint64_t bytes);

// How many plans plan_nccl_case has made in this process: tests hold that a case's is made once.
std::size_t nccl_plans_made();

}  // namespace ringsim
