// Why one NCCL case takes the time it does, per band of sizes: what NCCL's own model ranks first there
// (algorithm and protocol, against the runner-up), whether its time is latency- or bandwidth-bound
// (the larger term of latency + size / bandwidth, and its share), and the resource that binds (the NIC,
// NVLink port, PCIe link or host staging its channels, tree edges or NVLS heads share most). The
// findings (scenario_findings.h) and the report's bottleneck column read it.
#pragma once

#include "../model/model_settings.h"
#include "../nccl/nccl_rails.h"
#include "../results/case_results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// The link that binds a choice and what shares it.
struct NcclBinding {
  std::string link;     // "node0-nic0 up", "node0-gpu0-nvlink" (every GPU's port alike)
  std::string kind;     // "NIC", "NVLink port", "PCIe switch uplink", "host PCIe link"
  int sharers = 0;      // channels, tree edges or NVLS channels crossing it
  int of = 0;           // of how many channels run
  std::string sharer;   // "channels", "tree edges", "NVLS channels"
  double bus_bandwidth_Bps = 0;  // NCCL's bus bandwidth through it (0 where not stated)
};

// Consecutive sizes of a case where NCCL's choice is the same.
struct NcclBand {
  std::uint64_t from_bytes = 0, to_bytes = 0;
  NcclChoice choice;                     // at to_bytes
  std::optional<NcclChoice> runner_up;   // NCCL's model's next algorithm x protocol at to_bytes
  bool latency_bound = false;            // NCCL's latency term exceeds its size / bandwidth term
  double bound_share = 0;                // the larger term's share of NCCL's time, 0.5 to 1
  NcclBinding binding;
  double simulated_s = 0;                // the simulated median at to_bytes (0: not run)
};

struct NcclCaseExplanation {
  std::vector<NcclBand> bands;
};

// Every choice NCCL's model prices for PLAN at BYTES (the algorithms and protocols its request allows
// and the case enables), fastest first.
std::vector<NcclChoice> nccl_ranked_choices(const NcclPlan& plan, std::uint64_t bytes);

// The resource binding CHOICE of PLAN on PLACEMENT (FACTS: the platform's, as NCCL's search sees it).
NcclBinding nccl_binding(const NcclPlan& plan, const NcclChoice& choice, const NcclTopologyFacts& facts,
                         const PlacementSpec& placement);

// RESULT's explanation under MODEL (its variant's, or the NCCL part's); nullopt unless RESULT runs
// one of NCCL's algorithms with NCCL's view of the platform (a compact topology).
std::optional<NcclCaseExplanation> explain_nccl_case(const CaseResult& result, const ModelSettings& model);

// "node0-nic0 up (NIC), 2 of 16 channels, bus 397.5 GB/s": the binding in words.
std::string nccl_binding_text(const NcclBinding& binding);

}  // namespace ringsim
