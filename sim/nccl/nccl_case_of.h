// NCCL's view of one case of a scenario: the NCCL case of a placement under the model settings, and
// what the rank program of ALGORITHM takes from it (Simple's handshake, LL128's hops, the protocols'
// pace, the tree's hops, NVLS), and what NCCL picks per size.
#pragma once

#include "tuning/nccl_choice.h"
#include "tuning/nccl_nvls_costs.h"
#include "../model/model_settings.h"
#include "../model/placement.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ringsim {

// For ALGORITHM (nccl_ring, or nccl) on PLACEMENT under the model made for NCCL with its handshake
// asked for (the default), where LL128 is enabled (nccl_protocol_enabled); nullopt elsewhere. The maestro engine delivers each LL128 slice that much later.
std::optional<NcclHandshake> nccl_ll128_hops_of(const ModelSettings& model, const PlacementSpec& placement,
                                                std::string_view algorithm);

// The NCCL case of PLACEMENT under MODEL (its "nccl" settings and the platform's facts, model.nccl_facts);
// nullopt without facts (a hand-written SimGrid XML platform).
std::optional<NcclCase> nccl_case_of(const ModelSettings& model, const PlacementSpec& placement);

// Simple's per-slice handshake for ALGORITHM (nccl_ring, or nccl, which runs it) on PLACEMENT under
// MODEL, when it applies: asked for (the default), under the model made for NCCL, on nodes without
// NVLink. The maestro engine delivers each slice that much later; the others charge it to the
// channel's thread block (nccl_ring_allreduce.cpp). On NVLink nodes the public 10 x 1 H100 run is
// within 2% of the simulation without it and 13% slower with it: each loop of a channel then waits a
// handshake between its last receive and its next send, which NCCL's model, at 2% of that run, does not
// charge.
std::optional<NcclHandshake> nccl_handshake_of(const ModelSettings& model, const PlacementSpec& placement,
                                               std::string_view algorithm);

// For ALGORITHM (nccl_ring, or nccl) on PLACEMENT under the model made for NCCL; nullopt elsewhere.
std::optional<NcclBlockRates> nccl_block_rates_of(const ModelSettings& model, const PlacementSpec& placement,
                                                  std::string_view algorithm);

// For ALGORITHM (nccl_tree, or nccl, which may run it) on PLACEMENT over several nodes under the model
// made for NCCL; nullopt elsewhere.
std::optional<NcclTreeHops> nccl_tree_hops_of(const ModelSettings& model, const PlacementSpec& placement,
                                              std::string_view algorithm);

// Whether nccl_ring paces its slices in simulated time there: Simple's handshake, which wakes each rank
// at every slice, or block rates, which only the S4U and maestro engines bound without sleeping; or
// nccl_tree its hops to other nodes; or NVLS, whose messages only those engines charge by the switch's
// traffic (nccl_nvls_costs.h). Such runs take the maestro engine under "auto" (ModelSettings::engine_for).
bool nccl_paces_slices(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm);

// What nccl_ring runs at BYTES: the model's protocol, or NCCL's choice under "auto" (Simple when
// there is no NCCL case to choose with).
NcclProtocol nccl_protocol_at(const ModelSettings& model, const std::optional<NcclCase>& c, std::uint64_t bytes);

// What the rank program's NVLS takes for ALGORITHM on PLACEMENT under MODEL (nccl_nvls_costs.h NcclNvlsRun).
std::optional<NcclNvlsRun> nccl_nvls_run_of(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm);

// What ALGORITHM ("nccl_ring", "nccl_tree", "nccl_nvls", "nccl_nvls_tree" or "nccl") runs at BYTES under MODEL's "nccl" settings;
// nullopt for other algorithms. Without an NCCL case (a SimGrid XML platform): Simple, ring for "nccl".
std::optional<NcclChoice> nccl_choice_at(const ModelSettings& model, const std::optional<NcclCase>& c,
                                         std::string_view algorithm, std::uint64_t bytes);

// Whether ALGORITHM is one of NCCL's (nccl_ring, nccl_tree, nccl_nvls, nccl_nvls_tree, nccl).
bool is_nccl_algorithm(std::string_view algorithm);

}  // namespace ringsim
