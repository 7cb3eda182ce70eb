// The schedule of NCCL's PAT ("parallel aggregated trees", src/include/collectives.h PatAGAlgorithm and
// PatRSAlgorithm, 2.23 on), as peers and block offsets. Rank r is connected to r + 2^d and r - 2^d for
// each dimension d with 2^d < N (prims_simple.h, primsModePatAg/Rs). A block is named by its offset t
// from the rank: block (r + t) mod N.
//
// All-gather: every rank's block spreads down a binomial tree. Rank r sends on dimension d, to
// r - 2^d, the blocks at offsets t that it holds by then: its own (t = 0) and those whose lowest set bit
// is above d, wherever t + 2^d < N (the peer's offset of that block; beyond N it already has it). It
// receives the block at offset u (u = 1..N-1) once, from r + 2^lowbit(u). Dimensions go from the highest
// down, so a block is in hand before it is passed on. Each rank sends and receives N - 1 blocks.
//
// Reduce-scatter runs the same edges backwards, dimensions from the lowest up: rank r receives from
// r - 2^d the partial sums of the blocks at offsets t above (sent on d in the all-gather), adds them to
// its own copy, and once all of a block's contributions (dimensions below its lowest set bit) are in,
// sends the block at offset u to r + 2^lowbit(u); its own block (t = 0) collects one from every
// dimension.
//
// NCCL interleaves these operations over its steps (its `as` order) and packs several blocks into one
// FIFO step when a channel's share of a block is under half a step; the peers, the blocks and the bytes
// on every edge are the ones above.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace ringsim {

inline constexpr std::uint64_t kNcclPatFifoSteps = 8;  // NCCL_STEPS: the FIFO steps of one connection

// PAT's chunk for a call of BYTES on CHANNELS (enqueue.cc): a FIFO step (NCCL_BUFFSIZE / NCCL_STEPS),
// halved down to 64 KiB while channels x chunk x 32 (all-gather) or 16 (reduce-scatter) exceeds BYTES.
constexpr std::uint64_t nccl_pat_chunk_bytes(std::uint64_t buffsize, int channels, std::uint64_t bytes, bool reduce_scatter) {
  std::uint64_t chunk = buffsize / kNcclPatFifoSteps;
  const std::uint64_t spread = reduce_scatter ? 16 : 32;
  while (chunk * static_cast<std::uint64_t>(channels) * spread > bytes && chunk > 65536) chunk /= 2;
  return chunk;
}

// The dimensions of N ranks: d with 2^d < N (ceil(log2 N); 0 for one rank).
constexpr int pat_dimensions(int n) { return n <= 1 ? 0 : std::bit_width(static_cast<unsigned>(n - 1)); }

// The lowest set bit of T > 0 (NCCL's firstBitSet).
constexpr int pat_lowest_bit(int t) { return std::countr_zero(static_cast<unsigned>(t)); }

// The block offsets an all-gather sends on DIMENSION (a reduce-scatter receives there), ascending:
// 0 and every t with lowest set bit above DIMENSION, with t + 2^DIMENSION < N.
inline std::vector<int> pat_offsets_sent(int dimension, int n) {
  std::vector<int> offsets;
  for (int t = 0; t + (1 << dimension) < n; t += 2 << dimension) offsets.push_back(t);
  return offsets;
}

// The block offsets an all-gather receives on DIMENSION (a reduce-scatter sends there), ascending:
// those of pat_offsets_sent, each 2^DIMENSION further on (the sender's t is the receiver's t + 2^d).
inline std::vector<int> pat_offsets_received(int dimension, int n) {
  std::vector<int> offsets = pat_offsets_sent(dimension, n);
  for (int& t : offsets) t += 1 << dimension;
  return offsets;
}

// The peers on DIMENSION: the all-gather sends to rank - 2^d and receives from rank + 2^d; the
// reduce-scatter the other way round.
constexpr int pat_lower_peer(int rank, int dimension, int n) { return ((rank - (1 << dimension)) % n + n) % n; }
constexpr int pat_upper_peer(int rank, int dimension, int n) { return (rank + (1 << dimension)) % n; }

static_assert(pat_dimensions(1) == 0 && pat_dimensions(2) == 1 && pat_dimensions(16) == 4 && pat_dimensions(17) == 5);
static_assert(pat_lowest_bit(12) == 2);
static_assert(nccl_pat_chunk_bytes(4 << 20, 2, 1ULL << 30, false) == 512 << 10 && nccl_pat_chunk_bytes(4 << 20, 2, 8 << 20, false) == 128 << 10 &&
              nccl_pat_chunk_bytes(4 << 20, 2, 1 << 20, true) == 64 << 10);

}  // namespace ringsim
