#include "nccl_choice.h"

#include "nccl_nvls_costs.h"
#include "nccl_pat_costs.h"
#include "nccl_tree_costs.h"

#include <fmt/format.h>

namespace ringsim {

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
  if (!c.release->time_model || c.ranks <= 1) return ring;
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

NcclChoice nccl_choose_function(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes, NcclFunction function) {
  const NcclChoice ring{NcclAlgorithmKind::ring, nccl_predict(c, requested, bytes, function)};
  const bool copies = function == NcclFunction::all_gather || function == NcclFunction::reduce_scatter;
  const bool simple_allowed = requested == NcclProtocol::auto_choice || requested == NcclProtocol::simple;
  if (!copies || !simple_allowed || !c.release->time_model || c.ranks <= 1) return ring;
  // tuning.cc's loop: the ring comes first, then NVLS (one node), then PAT (one GPU per node); a
  // later one must be strictly faster. The two never apply to the same case.
  if (nccl_nvls_copy_possible(c))
    if (const NcclChoice nvls{NcclAlgorithmKind::nvls, nccl_nvls_copy_time(c, bytes)}; nvls.prediction.time_s < ring.prediction.time_s) return nvls;
  if (nccl_pat_possible(c))
    if (const NcclChoice pat{NcclAlgorithmKind::pat, nccl_pat_time(c, bytes)}; pat.prediction.time_s < ring.prediction.time_s) return pat;
  return ring;
}

std::string nccl_unmodelled_algorithms(const NcclCase& c) {
  // NVLS on one node and NVLS trees across nodes with a NIC beside every rank are simulated (nccl_nvls, nccl_nvls_tree).
  if (c.nodes > 1 && !nccl_nvls_tree_possible(c) && c.release->nvls_trees && c.compute_capability >= 90 && c.nvlink)
    return fmt::format("NCCL {} on several Hopper NVLink nodes may run NVLS trees (NVLink SHARP inside nodes, a tree between "
                       "them); ringsim models them with as many ranks on every node, each beside a NIC of its own, and here "
                       "simulates the ring or tree NCCL's model picks among those two",
                       c.version.text());
  return "";
}

}  // namespace ringsim
