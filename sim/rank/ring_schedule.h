// The ring's chunk schedule (baidu-allreduce's pattern): the buffer is cut into N chunks; at step i
// (0..N-2) of scatter-reduce the rank at position p of the ring sends chunk p - i and receives chunk
// p - i - 1 from its left neighbour, which it adds; allgather repeats the walk one chunk ahead, passing
// reduced chunks on. The ring algorithms and the report's replay of the ring use these two functions,
// so the schedule is written once. Inline: they run once per message on the hot path.
#pragma once

namespace ringsim {

// The chunk the rank at POSITION of an N-rank ring sends at STEP of scatter-reduce (REDUCE) or allgather.
constexpr int ring_send_chunk(int position, int step, bool reduce, int n) {
  return (position - step + (reduce ? 0 : 1) + n) % n;
}

// The chunk it receives at the same step (the one its left neighbour sends).
constexpr int ring_recv_chunk(int position, int step, bool reduce, int n) {
  return (position - step - 1 + (reduce ? 0 : 1) + n) % n;
}

static_assert(ring_recv_chunk(0, 0, true, 4) == 3 && ring_send_chunk(3, 0, true, 4) == 3, "left sends what right receives");
static_assert(ring_send_chunk(2, 0, false, 4) == 3, "allgather starts with the chunk scatter-reduce finished");

}  // namespace ringsim
