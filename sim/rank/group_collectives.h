// Building blocks that run on a subset of the communicator's ranks, so hierarchical allreduce can run
// them inside a node or among node leaders while the plain algorithms run them on every rank.
// Ranks are the communicator's (events name real peers); tags keep the blocks' messages apart.
#pragma once

#include "allreduce.h"

#include <cstddef>
#include <vector>

namespace ringsim {

// The ranks taking part, in their order in the algorithm, and this rank's position among them.
struct RankGroup {
  std::vector<int> ranks;
  int me = 0;
  int size() const { return static_cast<int>(ranks.size()); }
};

class EvenPieces;

// One phase of the ring (ring_schedule.h): N-1 steps of the rank at POSITION, each sending a piece of
// DATA to SEND_TO and receiving one from RECV_FROM, added into DATA (REDUCE: scatter-reduce, through
// ctx.scratch) or copied there (allgather). The ring allreduce runs both phases; all-gather and
// reduce-scatter run one each.
void ring_phase(float* data, const EvenPieces& pieces, int position, bool reduce, int send_to, int recv_from, int tag,
                AllreduceContext& ctx);

inline RankGroup whole_communicator(const AllreduceContext& ctx) {
  RankGroup group;
  for (int r = 0; r < ctx.size; ++r) group.ranks.push_back(r);
  group.me = ctx.rank;
  return group;
}

// One ring step: post the receive of RECV_COUNT floats from FROM, send SEND_COUNT floats to TO, wait
// for the receive (baidu-allreduce's Irecv + Send + Wait).
inline void ring_step(AllreduceContext& ctx, float* recv, std::size_t recv_count, int from, const float* send,
                      std::size_t send_count, int to, int tag) {
  MPI_Request request;
  ctx.irecv(recv, recv_count, from, tag, &request);
  ctx.send(send, send_count, to, tag);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

// Ring allreduce of DATA (in place) over GROUP: N-1 scatter-reduce and N-1 allgather steps.
void ring_allreduce_in_group(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx);

// Binomial-tree reduce of DATA (in place) to the group's first rank: ceil(lg N) rounds; in round k,
// positions with bit k set send their partial sum to position - 2^k and drop out.
void binomial_reduce(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx);

// Binomial-tree broadcast of DATA from the group's first rank, the reduce's mirror image.
void binomial_broadcast(float* data, std::size_t count, const RankGroup& group, AllreduceContext& ctx);

}  // namespace ringsim
