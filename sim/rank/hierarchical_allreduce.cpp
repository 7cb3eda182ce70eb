// Horovod's hierarchical allreduce: inside each node a binomial-tree reduce to the node's leader (its
// lowest rank), a ring allreduce among the leaders only, then a binomial-tree broadcast inside each
// node. Only one rank per node crosses the network, so the ring has as many members as nodes: fewer
// latencies, and each NIC carries 2(M-1)/M of the buffer for M nodes, but the node's fabric carries
// the whole buffer (G-1) times each way for G ranks per node.
#include "group_collectives.h"

#include <algorithm>

namespace ringsim {

void hierarchical_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  const std::vector<int>& node = ctx.node_of_rank;
  RankGroup local, leaders;
  for (int r = 0; r < ctx.size; ++r) {
    if (node[r] == node[ctx.rank]) {
      if (r == ctx.rank) local.me = local.size();
      local.ranks.push_back(r);
    }
    const bool first_of_its_node = std::find(node.begin(), node.begin() + r, node[r]) == node.begin() + r;
    if (first_of_its_node) {
      if (r == ctx.rank) leaders.me = leaders.size();
      leaders.ranks.push_back(r);
    }
  }
  binomial_reduce(output, count, local, ctx);
  if (local.me == 0) ring_allreduce_in_group(output, count, leaders, ctx);
  binomial_broadcast(output, count, local, ctx);
}

}  // namespace ringsim
