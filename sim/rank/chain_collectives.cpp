// Broadcast and reduce along a pipelined chain (a ring cut open): the buffer is cut into segments of
// kChainSegmentBytes; a rank posts the receive of the next segment before passing the current one on,
// so once the pipe is full every link carries a segment at once. With k segments of s bytes the last
// one arrives after (N - 2 + k) hops of s: for k >> N the link rate, whatever N.
#include "collective_catalog.h"
#include "collectives.h"
#include "message_tags.h"

#include <algorithm>

namespace ringsim {
namespace {

struct Segments {
  std::size_t count, length;
  std::size_t number() const { return (count + length - 1) / length; }
  std::size_t start(std::size_t j) const { return j * length; }
  std::size_t size(std::size_t j) const { return std::min(length, count - start(j)); }
};

Segments segments_of(std::size_t count) { return {count, kChainSegmentBytes / sizeof(float)}; }

// The chain from FIRST to LAST (rank 0 -> N-1 or N-1 -> 0): receive each segment from the previous
// rank into RECEIVE (then add it to DATA when REDUCE), pass DATA's segment to the next rank.
void run_chain(float* data, float* receive, std::size_t count, bool reduce, AllreduceContext& ctx) {
  const int n = ctx.size, me = ctx.rank;
  if (n == 1) return;
  const int step = reduce ? -1 : 1;
  const int first = reduce ? n - 1 : 0, last = reduce ? 0 : n - 1;
  const int previous = me - step, next = me + step;
  const Segments segments = segments_of(count);
  const std::size_t k = segments.number();
  const StepPhase phase = reduce ? StepPhase::reduce : StepPhase::broadcast;
  MPI_Request request = MPI_REQUEST_NULL;
  if (me != first && k > 0) ctx.irecv(receive, segments.size(0), previous, kChainTag, &request);
  for (std::size_t j = 0; j < k; ++j) {
    const double start = MPI_Wtime();
    if (me != first) {
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      if (reduce) ctx.kernels.sum_into(data + segments.start(j), receive + segments.start(j), segments.size(j));
      if (j + 1 < k)
        ctx.irecv(receive + segments.start(j + 1), segments.size(j + 1), previous, kChainTag, &request);
    }
    if (me != last) ctx.send(data + segments.start(j), segments.size(j), next, kChainTag);
    ctx.log.record({phase, static_cast<int>(j), static_cast<int>(j), me != first ? previous : next,
                    segments.size(j) * sizeof(float), start, MPI_Wtime()});
  }
}

}  // namespace

void chain_broadcast(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  if (ctx.rank == 0) ctx.kernels.copy(output, input, count);
  run_chain(output, output, count, false, ctx);
}

void chain_reduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  run_chain(output, ctx.scratch, count, true, ctx);
}

}  // namespace ringsim
