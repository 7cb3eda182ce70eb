#include "collective_data.h"

#include "buffer_pieces.h"

#include <array>

namespace ringsim {
namespace {

// Rank r contributes (r + i) % 16 at element i: sums stay exact small integers in float for any
// rank count up to 2^20, and vary along the buffer so a misplaced segment is caught.
constexpr int kPattern = 16;

float input_value(int rank, std::size_t i) { return static_cast<float>((static_cast<std::size_t>(rank) + i) % kPattern); }

// alltoall: element j of the block rank FROM sends rank TO.
float block_value(int from, int to, std::size_t j) {
  return static_cast<float>((static_cast<std::size_t>(from) * 5 + static_cast<std::size_t>(to) * 3 + j) % kPattern);
}

std::array<float, kPattern> expected_sums(int ranks) {
  std::array<float, kPattern> sums{};
  for (int i = 0; i < kPattern; ++i)
    for (int r = 0; r < ranks; ++r) sums[i] += input_value(r, static_cast<std::size_t>(i));
  return sums;
}

template <typename Expected>
long long count_wrong(const float* output, std::size_t from, std::size_t length, Expected expected) {
  long long wrong = 0;
  for (std::size_t i = 0; i < length; ++i) wrong += output[from + i] != expected(i) ? 1 : 0;
  return wrong;
}

}  // namespace

void fill_input(Collective collective, int rank, int ranks, std::size_t count, float* input) {
  switch (collective) {
    case Collective::all_gather: {  // the rank's piece, valued as its place in the whole output
      const Piece mine = EvenPieces(count, ranks)[rank];
      for (std::size_t j = 0; j < mine.length; ++j) input[j] = input_value(rank, mine.start + j);
      return;
    }
    case Collective::alltoall: {
      const std::size_t block = count / static_cast<std::size_t>(ranks);
      for (int to = 0; to < ranks; ++to)
        for (std::size_t j = 0; j < block; ++j) input[static_cast<std::size_t>(to) * block + j] = block_value(rank, to, j);
      return;
    }
    default:
      for (std::size_t i = 0; i < count; ++i) input[i] = input_value(rank, i);
  }
}

long long wrong_outputs(Collective collective, int rank, int ranks, std::size_t count, const float* output) {
  const std::array<float, kPattern> sums = expected_sums(ranks);
  const auto sum_at = [&sums](std::size_t i) { return sums[i % kPattern]; };
  switch (collective) {
    case Collective::all_reduce: return count_wrong(output, 0, count, sum_at);
    case Collective::all_gather: {
      const EvenPieces pieces(count, ranks);
      long long wrong = 0;
      for (int owner = 0; owner < ranks; ++owner)
        wrong += count_wrong(output, pieces[owner].start, pieces[owner].length,
                             [&](std::size_t j) { return input_value(owner, pieces[owner].start + j); });
      return wrong;
    }
    case Collective::reduce_scatter: {
      const Piece mine = EvenPieces(count, ranks)[rank];
      return count_wrong(output, 0, mine.length, [&](std::size_t j) { return sum_at(mine.start + j); });
    }
    case Collective::broadcast: return count_wrong(output, 0, count, [](std::size_t i) { return input_value(0, i); });
    case Collective::reduce: return rank == 0 ? count_wrong(output, 0, count, sum_at) : 0;
    case Collective::alltoall: {
      const std::size_t block = count / static_cast<std::size_t>(ranks);
      long long wrong = 0;
      for (int from = 0; from < ranks; ++from)
        wrong += count_wrong(output, static_cast<std::size_t>(from) * block, block,
                             [&](std::size_t j) { return block_value(from, rank, j); });
      return wrong;
    }
    case Collective::sendrecv: {
      const int from = (rank - 1 + ranks) % ranks;
      return count_wrong(output, 0, count, [from](std::size_t i) { return input_value(from, i); });
    }
  }
  return 0;
}

}  // namespace ringsim
