// `ringsim analyze`'s work without its output: a placement's ring embedded in the platform's routes
// under a model, its bottleneck, the closed-form time per size, and (--order optimized) the rank
// order search with its gain over block and cyclic order.
#pragma once

#include "../model/model_settings.h"
#include "../model/placement.h"
#include "algorithm_costs.h"
#include "../nccl/nccl_plan.h"
#include "../nccl/nccl_rails.h"
#include "ring_analysis.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct PlacementAnalysisRequest {
  PlacementSpec placement;  // with optimized, its order is the search's start (cyclic)
  bool optimized = false;   // search the rank order that is fastest at the largest size
  std::vector<std::uint64_t> sizes;
  std::string platform_file;  // names the platform in errors
  std::string model_where;    // names the model in errors (the model file, or else the platform)
};

// The optimized order's predicted times at BYTES (the largest size), with the two starts it beat.
struct OptimizedOrderGain {
  std::uint64_t bytes = 0;
  double time_s = 0;
  double cyclic_time_s = 0;
  double block_time_s = 0;
};

struct PredictedTime {
  std::uint64_t bytes = 0;
  double time_s = 0;
};

// NCCL's own prediction of its ring (algorithm_costs.h) at one size, with the protocol it runs.
struct NcclPredictedTime {
  std::uint64_t bytes = 0;
  NcclPrediction prediction;
};

struct PlacementAnalysis {
  std::vector<std::string> hosts;          // host of each rank, in rank order (the optimized one's)
  std::vector<std::string> nodes_visited;  // the nodes in ring order, runs written once: "node0 x4"
  RingEmbedding ring;
  Bottleneck bottleneck;
  std::optional<OptimizedOrderGain> optimized;  // set with request.optimized
  std::vector<PredictedTime> predicted;         // per requested size, in request order
  // With a model key "nccl" on a compact topology: NCCL's time model of nccl_ring, per requested size.
  std::optional<NcclCase> nccl;
  std::vector<NcclPredictedTime> nccl_predicted;
  std::optional<NcclRailUse> nccl_rails;  // which NIC carries which channel, on several nodes
};

// Throws InputError when MODEL does not fit PLATFORM or the placement does not fit its layout.
PlacementAnalysis analyze_placement(const Platform& platform, const ModelSettings& model,
                                    const PlacementAnalysisRequest& request);

}  // namespace ringsim
