// Cutting a buffer of `count` floats into contiguous pieces (ring chunks, parameter-server shards,
// recursive-halving blocks). Sender and receiver compute the same cut, so message sizes always match.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ringsim {

struct Piece {
  std::size_t start = 0;
  std::size_t length = 0;
};

// PARTS pieces as equal as possible; the first count % parts are one element longer (some are empty
// when count < parts). Each piece is computed when asked for: a ring of N ranks keeps no table of N
// pieces per rank (64 KiB each at 4096 ranks, read at scattered places every step).
class EvenPieces {
 public:
  EvenPieces(std::size_t count, int parts)
      : parts_(parts), length_(count / static_cast<std::size_t>(parts)), longer_(count % static_cast<std::size_t>(parts)) {}
  Piece operator[](int i) const {
    const std::size_t index = static_cast<std::size_t>(i);
    return {index * length_ + std::min(index, longer_), length_ + (index < longer_ ? 1 : 0)};
  }
  int size() const { return parts_; }

 private:
  int parts_;
  std::size_t length_;  // of the shorter pieces
  std::size_t longer_;  // how many pieces are one element longer
};

// The same pieces as a table.
inline std::vector<Piece> split_evenly(std::size_t count, int parts) {
  const EvenPieces pieces(count, parts);
  std::vector<Piece> table;
  for (int i = 0; i < parts; ++i) table.push_back(pieces[i]);
  return table;
}

}  // namespace ringsim
