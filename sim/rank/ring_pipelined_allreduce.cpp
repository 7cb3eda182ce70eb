// Pipelined ring: the ring's 2(N-1) steps with every chunk cut into segments of a fixed size, all
// non-blocking. A segment is forwarded (and the next step's segment received into its slot) as soon
// as it has arrived and been added, instead of waiting for the whole chunk, so the reduction of one
// segment overlaps the transfer of the others and steps no longer wait for their slowest segment.
// Bytes per rank are the ring's, 2(N-1)/N of the buffer, in more and smaller messages.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "message_tags.h"
#include "ring_schedule.h"

#include <algorithm>

namespace ringsim {
namespace {

class PipelinedRing {
 public:
  PipelinedRing(float* data, std::size_t count, std::size_t segment_bytes, AllreduceContext& ctx)
      : data_(data), ctx_(ctx), n_(ctx.size), rank_(ctx.rank), chunks_(count, ctx.size),
        segment_(std::max<std::size_t>(1, segment_bytes / sizeof(float))), sends_(ctx.size) {
    for (int c = 0; c < n_; ++c) sends_[c].assign(segments(c), MPI_REQUEST_NULL);
  }

  void run() {
    const int steps = 2 * (n_ - 1);
    std::vector<MPI_Request> current, next;
    std::vector<double> current_posted, next_posted;
    for (int j = 0; j < segments(recv_chunk(0)); ++j) post_receive(0, j, current, current_posted);
    for (int j = 0; j < segments(send_chunk(0)); ++j) post_send(0, j);
    for (int s = 0; s < steps; ++s) {
      const int chunk = recv_chunk(s);
      const int m = segments(chunk), m_next = s + 1 < steps ? segments(recv_chunk(s + 1)) : 0;
      next.clear();
      next_posted.clear();
      for (int j = 0; j < m; ++j) {
        MPI_Wait(&current[j], MPI_STATUS_IGNORE);
        const Piece piece = segment(chunk, j);
        if (reduces(s)) ctx_.kernels.sum_into(data_ + piece.start, slot(j), piece.length);
        ctx_.log.record({reduces(s) ? StepPhase::scatter_reduce : StepPhase::allgather, phase_step(s),
                         chunk, left(), piece.length * sizeof(float), current_posted[j], MPI_Wtime()});
        if (s + 1 < steps) {
          post_send(s + 1, j);  // the segment just completed is the next step's send
          if (j < m_next) post_receive(s + 1, j, next, next_posted);
        }
      }
      for (int j = m; j < m_next; ++j) post_receive(s + 1, j, next, next_posted);
      std::swap(current, next);
      std::swap(current_posted, next_posted);
    }
    for (auto& requests : sends_) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  }

 private:
  int left() const { return (rank_ - 1 + n_) % n_; }
  int right() const { return (rank_ + 1) % n_; }
  bool reduces(int step) const { return step < n_ - 1; }
  // The ring's chunk schedule (ring_schedule.h) over 2(N-1) steps: scatter-reduce, then allgather.
  int phase_step(int step) const { return reduces(step) ? step : step - (n_ - 1); }
  int send_chunk(int step) const { return ring_send_chunk(rank_, phase_step(step), reduces(step), n_); }
  int recv_chunk(int step) const { return ring_recv_chunk(rank_, phase_step(step), reduces(step), n_); }
  // An empty chunk still sends one empty segment, so both ends agree on the messages.
  int segments(int chunk) const {
    const std::size_t length = chunks_[chunk].length;
    return std::max<int>(1, static_cast<int>((length + segment_ - 1) / segment_));
  }
  Piece segment(int chunk, int j) const {
    const std::size_t offset = static_cast<std::size_t>(j) * segment_;
    const std::size_t length = chunks_[chunk].length > offset ? std::min(segment_, chunks_[chunk].length - offset) : 0;
    return {chunks_[chunk].start + offset, length};
  }
  float* slot(int j) const { return ctx_.scratch + static_cast<std::size_t>(j) * segment_; }

  void post_receive(int step, int j, std::vector<MPI_Request>& requests, std::vector<double>& posted) {
    const int chunk = recv_chunk(step);
    const Piece piece = segment(chunk, j);
    float* target = slot(j);
    if (!reduces(step)) {
      // The allgather overwrites a segment this rank sent during scatter-reduce: that send must be done.
      MPI_Wait(&sends_[chunk][j], MPI_STATUS_IGNORE);
      target = data_ + piece.start;
    }
    requests.emplace_back();
    posted.push_back(MPI_Wtime());
    ctx_.irecv(target, piece.length, left(), kPipelinedSegmentTag, &requests.back());
  }

  void post_send(int step, int j) {
    const int chunk = send_chunk(step);
    const Piece piece = segment(chunk, j);
    ctx_.isend(data_ + piece.start, piece.length, right(), kPipelinedSegmentTag, &sends_[chunk][j]);
  }

  float* data_;
  AllreduceContext& ctx_;
  int n_, rank_;
  EvenPieces chunks_;
  std::size_t segment_;  // floats
  std::vector<std::vector<MPI_Request>> sends_;  // the latest send from each segment, by chunk
};

}  // namespace

void ring_pipelined_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx,
                              std::size_t segment_bytes) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size == 1) return;
  PipelinedRing(output, count, segment_bytes, ctx).run();
}

}  // namespace ringsim
