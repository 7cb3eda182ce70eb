// All-to-all two ways. Pairwise exchange: N-1 steps, at step k each rank swaps a block with the ranks
// k ahead and k behind (MPI_Sendrecv), so every rank sends and receives one block per step. Linear:
// every receive and send posted at once and waited for together, leaving the order to the network.
// Either way each rank sends and receives (N-1) blocks of count / N floats.
#include "collectives.h"
#include "message_tags.h"

#include <vector>

namespace ringsim {

void pairwise_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const std::size_t block = count / static_cast<std::size_t>(n);
  const auto at = [block](int p) { return static_cast<std::size_t>(p) * block; };
  ctx.kernels.copy(output + at(me), input + at(me), block);
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n, from = (me - k + n) % n;
    const double start = MPI_Wtime();
    ctx.sendrecv(input + at(to), block, to, output + at(from), block, from, kAlltoallTag);
    ctx.log.record({StepPhase::exchange, k - 1, from, from, block * sizeof(float), start, MPI_Wtime()});
  }
}

void linear_alltoall(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  const std::size_t block = count / static_cast<std::size_t>(n);
  const auto at = [block](int p) { return static_cast<std::size_t>(p) * block; };
  ctx.kernels.copy(output + at(me), input + at(me), block);
  std::vector<MPI_Request> requests(2 * static_cast<std::size_t>(n - 1), MPI_REQUEST_NULL);
  const double start = MPI_Wtime();
  for (int k = 1; k < n; ++k) {  // peers in the pairwise order, so the two spread their load alike
    const int from = (me - k + n) % n;
    ctx.irecv(output + at(from), block, from, kAlltoallTag, &requests[static_cast<std::size_t>(k - 1)]);
  }
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n;
    ctx.isend(input + at(to), block, to, kAlltoallTag, &requests[static_cast<std::size_t>(n - 2 + k)]);
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  ctx.log.record({StepPhase::exchange, 0, 0, (me + 1) % n, at(n - 1), start, MPI_Wtime()});
}

}  // namespace ringsim
