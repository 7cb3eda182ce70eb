// Closed-form times of the collectives other than allreduce (sim/rank/collective_catalog.h) in the
// same alpha-beta-gamma model as the allreduce algorithms' (algorithm_costs.h), for a size as
// nccl-tests counts it: the case of one rank per node behind a non-blocking switch with split-duplex
// NICs, on the ideal model (CM02, no cross-traffic, no SMPI factors).
#pragma once

#include "../model/cost_parameters.h"
#include "../rank/collective_catalog.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ringsim {

// nullopt when COLLECTIVE is all_reduce (algorithm_costs.h), has no algorithm ALGORITHM, or ALGORITHM is
// NCCL's (its own time model prices it).
std::optional<double> collective_time_s(Collective collective, std::string_view algorithm, int ranks, std::uint64_t bytes,
                                        const CostParameters& c);

}  // namespace ringsim
