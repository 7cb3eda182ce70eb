#include "nccl_choice.h"

#include "nccl_tree_costs.h"

#include <fmt/format.h>

namespace ringsim {

std::string_view nccl_algorithm_name(NcclAlgorithmKind algorithm) {
  return algorithm == NcclAlgorithmKind::tree ? "Tree" : "Ring";
}

std::string nccl_choice_text(const NcclChoice& choice) {
  return fmt::format("{}/{}", nccl_algorithm_name(choice.algorithm), protocol_name(choice.prediction.protocol));
}

NcclPrediction nccl_tree_predict(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes) {
  if (requested != NcclProtocol::auto_choice) return nccl_tree_time(c, requested, bytes);
  std::optional<NcclPrediction> best;
  // NCCL's order: LL, LL128, Simple; a later protocol must be strictly faster.
  for (NcclProtocol candidate : {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple})
    if (nccl_protocol_enabled(c, candidate))
      if (NcclPrediction t = nccl_tree_time(c, candidate, bytes); !best || t.time_s < best->time_s) best = t;
  return *best;
}

NcclChoice nccl_choose(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes) {
  NcclChoice ring{NcclAlgorithmKind::ring, nccl_predict(c, requested, bytes)};
  if (!c.version.at_least(2, 5) || c.ranks <= 1) return ring;
  const NcclChoice tree{NcclAlgorithmKind::tree, nccl_tree_predict(c, requested, bytes)};
  return tree.prediction.time_s <= ring.prediction.time_s ? tree : ring;  // NCCL tries the tree first
}

bool is_nccl_algorithm(std::string_view algorithm) {
  return algorithm == "nccl_ring" || algorithm == "nccl_tree" || algorithm == "nccl";
}

std::optional<NcclChoice> nccl_choice_at(const ModelSettings& model, const std::optional<NcclCase>& c,
                                         std::string_view algorithm, std::uint64_t bytes) {
  if (!is_nccl_algorithm(algorithm)) return std::nullopt;
  const NcclProtocol requested = model.effective_nccl().protocol;
  const NcclAlgorithmKind kind = algorithm == "nccl_tree" ? NcclAlgorithmKind::tree : NcclAlgorithmKind::ring;
  if (!c) {
    NcclChoice fallback{kind, {}};
    fallback.prediction.protocol = requested == NcclProtocol::auto_choice ? NcclProtocol::simple : requested;
    fallback.prediction.time_s = -1;  // no model without NCCL's view of the platform
    return fallback;
  }
  if (algorithm == "nccl") return nccl_choose(*c, requested, bytes);
  if (kind == NcclAlgorithmKind::tree) return NcclChoice{kind, nccl_tree_predict(*c, requested, bytes)};
  return NcclChoice{kind, nccl_predict(*c, requested, bytes)};
}

std::string nccl_unmodelled_algorithms(const NcclCase& c) {
  if (c.version.at_least(2, 17) && c.compute_capability >= 90 && c.nvlink)
    return fmt::format("NCCL {}.{} on Hopper NVLink nodes may run NVLS (NVLink SHARP) where the NVSwitches support it; "
                       "ringsim does not model NVLS or CollNet and simulates the ring or tree NCCL's model picks among those two",
                       c.version.major, c.version.minor);
  return "";
}

}  // namespace ringsim
