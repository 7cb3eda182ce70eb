// The size nccl-tests was asked for against the size it prints. It prints an all-gather's,
// reduce-scatter's or alltoall's size as the buffer it ran: the size asked for, split into a piece per
// rank of whole 16-byte blocks (nccl-tests' *GetCollByteCount: (count / nranks) & ~(16 / eltSize - 1);
// before 2.13.12, whole blocks of 4 elements, the same 16 bytes for the float32 buffers ringsim
// simulates), so less than ranks x 16 bytes below it: asked for 64 MiB over 80 ranks, an all-gather
// prints 67107840 B. --min-bytes names the size asked for, so the sizes judged start at the row
// printed for it.
#pragma once

#include "measured_cases.h"

#include <cstdint>
#include <string_view>

namespace ringsim {

// Whether nccl-tests prints COLLECTIVE's size below the size asked for (a buffer split among the ranks).
bool printed_below_asked(Collective collective);

// The least size GROUPED's rows are judged from when MIN_BYTES was asked for: MIN_BYTES, or, for a
// trace of FORMAT "nccl-tests" whose collective is printed below the size asked, the smallest of its
// sizes within (most ranks) x 16 bytes below MIN_BYTES.
std::uint64_t judged_from_bytes(const GroupedTrace& grouped, std::string_view format, std::uint64_t min_bytes);

}  // namespace ringsim
