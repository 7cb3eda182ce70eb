#include "nccl_enqueue_rules.h"

#include <fmt/format.h>

namespace ringsim {

NcclEnqueueRules nccl_enqueue_rules(const NcclRelease& release, std::uint64_t buffsize) {
  NcclEnqueueRules rules;
  rules.tree_split_simple = release.tree_split[kNcclSimple];
  rules.tree_split_ll = release.tree_split[kNcclLL];
  rules.nvls_tree_chunk = release.nvls_tree_chunk > 0 ? release.nvls_tree_chunk : buffsize / 8;  // else a Simple step
  rules.nvls_tree_64k_from_4_nodes = release.nvls_tree_64k_from_4_nodes;
  rules.nvls_first_halving = release.nvls_first_halving;
  return rules;
}

std::string nccl_enqueue_argument(const NcclEnqueueRules& rules) {
  return fmt::format("{:d},{:d},{},{:d},{}", rules.tree_split_simple, rules.tree_split_ll, rules.nvls_tree_chunk,
                     rules.nvls_tree_64k_from_4_nodes, rules.nvls_first_halving);
}

}  // namespace ringsim
