#include "nccl_enqueue_rules.h"

#include <fmt/format.h>

namespace ringsim {

NcclEnqueueRules nccl_enqueue_rules(const NcclVersion& version, std::uint64_t buffsize) {
  NcclEnqueueRules rules;
  rules.tree_split_simple = version.at_least(2, 8);
  rules.tree_split_ll = version.at_least(2, 10);
  rules.nvls_tree_chunk = version.at_least(2, 21) ? (128u << 10) : buffsize / 8;  // NCCL_NVLS_CHUNKSIZE from 2.21
  rules.nvls_tree_64k_from_4_nodes = version.at_least(2, 19);
  rules.nvls_first_halving = version.at_least(2, 18) ? 64 : 32;
  return rules;
}

std::string nccl_enqueue_argument(const NcclEnqueueRules& rules) {
  return fmt::format("{:d},{:d},{},{:d},{}", rules.tree_split_simple, rules.tree_split_ll, rules.nvls_tree_chunk,
                     rules.nvls_tree_64k_from_4_nodes, rules.nvls_first_halving);
}

}  // namespace ringsim
