// The rules of one NCCL release's enqueue code and kernels that the rank program follows (its
// NcclEnqueueRules): how the tree runs its two phases (all_reduce.h: runTreeSplit or runTreeUpDown) and
// how enqueue.cc's calcCollChunking cuts NVLS calls. The rank program receives them, never the version.
#pragma once

#include "nccl_settings.h"

#include "../../rank/nccl_rank_settings.h"

#include <cstdint>

namespace ringsim {

// RELEASE's rules with NCCL_BUFFSIZE BUFFSIZE (a Simple step, buffsize / 8, is the NVLS tree's chunk up to 2.20).
NcclEnqueueRules nccl_enqueue_rules(const NcclRelease& release, std::uint64_t buffsize);

// The rank program's --nccl-enqueue argument for RULES.
std::string nccl_enqueue_argument(const NcclEnqueueRules& rules);

}  // namespace ringsim
