// What sizes a simulation can run, checked before any case starts so that a limit is one line naming
// it and the way around it, never a rank program aborting inside smpirun.
#pragma once

#include "../model/scenario.h"

#include <cstdint>
#include <optional>

namespace ringsim {

// The largest size the rank program sends as one message: 2^31 - 1 elements of MPI's largest
// predefined type it uses (32 bytes; counted_mpi.cpp).
inline constexpr std::uint64_t kLargestSimulatedSize = 64ULL << 30;

// Throws InputError naming the scenario when a size is beyond kLargestSimulatedSize, or when the
// `mpi` algorithm (SMPI's own MPI_Allreduce, whose buffers hold real memory and take an int count)
// would need more memory than AVAILABLE_BYTES (this machine's MemAvailable when nullopt).
void check_simulated_sizes(const Scenario& scenario, std::optional<std::uint64_t> available_bytes = std::nullopt);

}  // namespace ringsim
