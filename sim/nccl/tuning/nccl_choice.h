// What NCCL runs at one size: ncclTopoGetAlgoTime over every enabled algorithm and protocol, the
// fastest taken (src/enqueue.cc getAlgoInfo / topoGetAlgoInfo; ties to the tree, which NCCL tries
// first). Ring, tree, NVLS on one NVSwitch node and NVLS trees across such nodes are modelled; NVLS
// trees with fewer NICs than GPUs and CollNet (a SHARP network plugin) are only named
// (nccl_unmodelled_algorithms).
#pragma once

#include "nccl_ring_model.h"
#include "../../rank/nccl_rank_settings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ringsim {

struct NcclChoice {
  NcclAlgorithmKind algorithm = NcclAlgorithmKind::ring;
  NcclPrediction prediction;
};

// "Tree/LL", "Ring/Simple": what ran, for tables.
std::string nccl_choice_text(const NcclChoice& choice);

// The fastest of NCCL's tree under REQUESTED (auto_choice: every enabled protocol).
NcclPrediction nccl_tree_predict(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes);

// NCCL's pick among ring, tree, NVLS and NVLS trees (nccl_nvls_costs.h) under REQUESTED. NCCL 2.4 chose by thresholds, not this model:
// it is taken as ring only.
NcclChoice nccl_choose(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes);

// NCCL's pick for FUNCTION other than all-reduce: its ring, or for all-gather and reduce-scatter NVLS on
// one node where the release has it (nccl_nvls_copy_possible) or PAT with one GPU per node from 2.23
// (nccl_pat_costs.h), where that is strictly faster (Simple only).
NcclChoice nccl_choose_function(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes, NcclFunction function);

// A sentence naming what NCCL may run here that nccl does not simulate (NVLS trees across more than two
// Hopper NVLink nodes, or with fewer NICs than ranks, from 2.18), or empty.
std::string nccl_unmodelled_algorithms(const NcclCase& c);

}  // namespace ringsim
