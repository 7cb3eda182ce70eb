// What each engine can do for the rank program (sim/rank/engine_probes.h), and what a case's timing
// model needs of it. A case runs on an engine that has everything its model needs: "auto" picks one
// (ModelSettings::engine_for), and an engine named by the scenario that lacks something is refused,
// never replaced by another timing model (docs/engines.md, "What each engine can do").
#pragma once

#include "../model/scenario.h"
#include "../results/case_results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

enum class EngineCapability : unsigned {
  paced_sends = 1,         // a send flows at a rate of the rank's (pace_sends): LL's and LL128's thread blocks
  scaled_sends = 2,        // a send weighs other than its size on the wire (scale_sends): NVLS in the switch
  delayed_deliveries = 4,  // a message arrives a latency after its transfer (delay_deliveries): Simple's and LL128's hops
};

// One engine and what it can do.
struct EngineRow {
  std::string_view name;
  unsigned capabilities;  // EngineCapability bits
};
inline constexpr unsigned kEveryCapability = 7;
inline constexpr EngineRow kEngines[] = {
    {"smpi", 0},
    {"s4u", static_cast<unsigned>(EngineCapability::paced_sends) | static_cast<unsigned>(EngineCapability::scaled_sends)},
    {"maestro", kEveryCapability},
};

// What a case's timing model needs: the capability bits, each with the mechanism that needs it.
struct CaseNeeds {
  unsigned capabilities = 0;
  std::vector<std::string> reasons;  // "Simple's handshake per slice (delayed deliveries)"
};

// What SPEC (its NCCL plan) needs at SIZES: Simple's handshake where a size runs Simple on the ring,
// LL128's hops where one runs LL128 on it, LL's and LL128's pace where one runs them, NVLS's
// traffic in the switch where one runs NVLS or its tree. Nothing for the MPI algorithms.
CaseNeeds case_needs(const SimulationCase& spec, const std::vector<std::uint64_t>& sizes);

// Why ENGINE cannot run a case that needs NEEDS, or nullopt when it can.
std::optional<std::string> engine_lacks(std::string_view engine, const CaseNeeds& needs);

// Throws InputError (naming SCENARIO's file and its /model/engine) when the engine the scenario names
// for SPEC cannot run SPEC's timing model; "auto" always finds one.
void check_engine_capable(const Scenario& scenario, const SimulationCase& spec);

}  // namespace ringsim
