// Bidirectional ring: the first half of the buffer goes round a ring to the right, the second half
// round a ring to the left, step by step together (non-blocking, both directions in flight). Each
// rank still sends 2(N-1)/N of the buffer, now split over both neighbours: it gains where the two
// directions use different links (two NICs, NVLink) and changes nothing where one NIC carries both.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "message_tags.h"
#include "ring_schedule.h"

#include <array>

namespace ringsim {
namespace {

// One of the two rings: its part of the buffer, its chunks, and this rank's position in it.
struct DirectedRing {
  float* data;
  EvenPieces chunks;
  int position;
  int send_to, recv_from;
  float* scratch;
};

}  // namespace

void ring_bidir_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  const int n = ctx.size, rank = ctx.rank;
  if (n == 1) return;
  const std::size_t first_half = count - count / 2;
  const int right = (rank + 1) % n, left = (rank - 1 + n) % n;
  const EvenPieces right_chunks(first_half, n);
  // Received chunks of the two rings go to separate parts of scratch (each fits: a chunk of a half is
  // never longer than the half).
  const std::array<DirectedRing, 2> rings{
      DirectedRing{output, right_chunks, rank, right, left, ctx.scratch},
      DirectedRing{output + first_half, EvenPieces(count / 2, n), (n - rank) % n, left, right,
                   ctx.scratch + right_chunks[0].length}};

  // Step i of a phase moves one chunk along each ring at once; scatter-reduce receives into scratch
  // and adds, allgather receives in place.
  auto step = [&](int i, bool reduce) {
    const double start = MPI_Wtime();
    std::array<MPI_Request, 4> requests;
    std::array<Piece, 2> received;
    std::array<int, 2> received_chunk{};
    for (int d = 0; d < 2; ++d) {
      const DirectedRing& ring = rings[d];
      received_chunk[d] = ring_recv_chunk(ring.position, i, reduce, n);
      received[d] = ring.chunks[received_chunk[d]];
      const Piece send = ring.chunks[ring_send_chunk(ring.position, i, reduce, n)];
      // The right-going ring uses the tag, the left-going one the tag + 1 (with N = 2 both rings join
      // the same two ranks).
      const int tag = (reduce ? kBidirScatterTag : kBidirGatherTag) + d;
      ctx.irecv(reduce ? ring.scratch : ring.data + received[d].start, received[d].length, ring.recv_from, tag,
                &requests[2 * d]);
      ctx.isend(ring.data + send.start, send.length, ring.send_to, tag, &requests[2 * d + 1]);
    }
    MPI_Waitall(4, requests.data(), MPI_STATUSES_IGNORE);
    for (int d = 0; d < 2; ++d) {
      if (reduce) ctx.kernels.sum_into(rings[d].data + received[d].start, rings[d].scratch, received[d].length);
      // Chunks of the left-going ring are numbered N..2N-1 in events.
      ctx.log.record({reduce ? StepPhase::scatter_reduce : StepPhase::allgather, i, received_chunk[d] + d * n,
                      rings[d].recv_from, received[d].length * sizeof(float), start, MPI_Wtime()});
    }
  };
  for (int i = 0; i < n - 1; ++i) step(i, true);
  for (int i = 0; i < n - 1; ++i) step(i, false);
}

}  // namespace ringsim
