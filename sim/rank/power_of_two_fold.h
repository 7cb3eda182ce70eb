// Non-power-of-two rank counts in recursive doubling and Rabenseifner (Thakur, Rabenseifner, Gropp
// 2005): of N ranks, the largest power of two P <= N do the main algorithm; the R = N - P extra ranks
// are folded first. The first 2R ranks pair up (2i, 2i+1): the even rank gives its data to the odd one
// and sits the main part out; the odd one takes part as virtual rank i. Ranks >= 2R are virtual rank
// rank - R. At the end each odd rank sends the result back to its even partner.
#pragma once

namespace ringsim {

struct PowerOfTwoFold {
  int ranks = 1;       // N
  int main_ranks = 1;  // P, the largest power of two <= N
  int extra = 0;       // R = N - P

  explicit PowerOfTwoFold(int n) : ranks(n) {
    while (main_ranks * 2 <= n) main_ranks *= 2;
    extra = n - main_ranks;
  }
  bool folded_away(int rank) const { return rank < 2 * extra && rank % 2 == 0; }   // sits out
  bool folds_in(int rank) const { return rank < 2 * extra && rank % 2 == 1; }      // holds a pair
  int virtual_rank(int rank) const { return rank < 2 * extra ? rank / 2 : rank - extra; }  // not for folded_away
  int real_rank(int virtual_rank) const { return virtual_rank < extra ? 2 * virtual_rank + 1 : virtual_rank + extra; }
};

}  // namespace ringsim
