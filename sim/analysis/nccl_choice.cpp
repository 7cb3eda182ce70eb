#include "nccl_choice.h"

#include "nccl_nvls_costs.h"
#include "nccl_tree_costs.h"

#include <fmt/format.h>

namespace ringsim {

std::string_view nccl_algorithm_name(NcclAlgorithmKind algorithm) {
  if (algorithm == NcclAlgorithmKind::nvls) return "NVLS";
  if (algorithm == NcclAlgorithmKind::nvls_tree) return "NVLSTree";
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
  const NcclChoice best = tree.prediction.time_s <= ring.prediction.time_s ? tree : ring;  // NCCL tries the tree first
  // Then NVLS and its tree (Simple only), each of which must be strictly faster.
  if (requested != NcclProtocol::auto_choice && requested != NcclProtocol::simple) return best;
  if (nccl_nvls_possible(c))
    if (const NcclChoice nvls{NcclAlgorithmKind::nvls, nccl_nvls_time(c, bytes)}; nvls.prediction.time_s < best.prediction.time_s) return nvls;
  if (nccl_nvls_tree_possible(c))
    if (const NcclChoice tree{NcclAlgorithmKind::nvls_tree, nccl_nvls_tree_time(c, bytes)}; tree.prediction.time_s < best.prediction.time_s)
      return tree;
  return best;
}

bool is_nccl_algorithm(std::string_view algorithm) {
  return algorithm == "nccl_ring" || algorithm == "nccl_tree" || algorithm == "nccl_nvls" || algorithm == "nccl_nvls_tree" ||
         algorithm == "nccl";
}

std::optional<NcclChoice> nccl_choice_at(const ModelSettings& model, const std::optional<NcclCase>& c,
                                         std::string_view algorithm, std::uint64_t bytes) {
  if (!is_nccl_algorithm(algorithm)) return std::nullopt;
  const NcclProtocol requested = model.effective_nccl().protocol;
  const NcclAlgorithmKind kind = algorithm == "nccl_tree"   ? NcclAlgorithmKind::tree
                                 : algorithm == "nccl_nvls" ? NcclAlgorithmKind::nvls
                                 : algorithm == "nccl_nvls_tree" ? NcclAlgorithmKind::nvls_tree
                                                            : NcclAlgorithmKind::ring;
  if (!c) {
    NcclChoice fallback{kind, {}};
    fallback.prediction.protocol = requested == NcclProtocol::auto_choice ? NcclProtocol::simple : requested;
    fallback.prediction.time_s = -1;  // no model without NCCL's view of the platform
    return fallback;
  }
  if (algorithm == "nccl") return nccl_choose(*c, requested, bytes);
  if (kind == NcclAlgorithmKind::tree) return NcclChoice{kind, nccl_tree_predict(*c, requested, bytes)};
  if (kind == NcclAlgorithmKind::nvls || kind == NcclAlgorithmKind::nvls_tree) {
    if (kind == NcclAlgorithmKind::nvls && nccl_nvls_possible(*c)) return NcclChoice{kind, nccl_nvls_time(*c, bytes)};
    if (kind == NcclAlgorithmKind::nvls_tree && nccl_nvls_tree_possible(*c)) return NcclChoice{kind, nccl_nvls_tree_time(*c, bytes)};
    NcclChoice unmodelled{kind, {}};  // NCCL would not run NVLS here: no model time
    unmodelled.prediction.time_s = -1;
    return unmodelled;
  }
  return NcclChoice{kind, nccl_predict(*c, requested, bytes)};
}

std::string nccl_unmodelled_algorithms(const NcclCase& c) {
  // NVLS on one node and NVLS trees across nodes with a NIC beside every rank are simulated (nccl_nvls, nccl_nvls_tree).
  if (c.nodes > 1 && !nccl_nvls_tree_possible(c) && c.version.at_least(2, 18) && c.compute_capability >= 90 && c.nvlink)
    return fmt::format("NCCL {}.{} on several Hopper NVLink nodes may run NVLS trees (NVLink SHARP inside nodes, a tree between "
                       "them); ringsim models them with as many ranks on every node, each beside a NIC of its own, and here "
                       "simulates the ring or tree NCCL's model picks among those two",
                       c.version.major, c.version.minor);
  return "";
}

}  // namespace ringsim
