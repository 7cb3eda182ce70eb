// Cutting a buffer of `count` floats into contiguous pieces (ring chunks, parameter-server shards,
// recursive-halving blocks). Sender and receiver compute the same cut, so message sizes always match.
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim {

struct Piece {
  std::size_t start = 0;
  std::size_t length = 0;
};

// PARTS pieces as equal as possible; the first count % parts are one element longer (some are empty
// when count < parts).
inline std::vector<Piece> split_evenly(std::size_t count, int parts) {
  std::vector<Piece> pieces;
  std::size_t offset = 0;
  for (int i = 0; i < parts; ++i) {
    const std::size_t length = count / parts + (static_cast<std::size_t>(i) < count % parts ? 1 : 0);
    pieces.push_back({offset, length});
    offset += length;
  }
  return pieces;
}

}  // namespace ringsim
