// The ring's chunk movement step by step, for the report's picture: which chunk every rank receives
// at each step, and how many ranks' contributions each rank's copy of each chunk holds afterwards.
// From the ring's schedule (sim/rank/ring_allreduce.cpp) or from recorded steps (a timeline).
#pragma once

#include "../results/chrome_timeline.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct MovementStep {
  std::string label;                            // "scatter_reduce 0"
  std::vector<int> received_chunk;              // per rank; -1 when the rank received nothing
  std::vector<std::vector<int>> contributions;  // [rank][chunk] after the step: ranks summed in (1..N)
};

struct ChunkMovement {
  int ranks = 0;
  std::string source;                             // where the steps come from, for the page
  std::vector<std::vector<int>> initial;          // [rank][chunk] before the first step: all 1
  std::vector<MovementStep> steps;
  int last_reduce_step = -1;                      // index of the last step of a reducing phase
};

// Replays STEPS (any order) phase by phase, step by step: in a phase whose name contains "reduce"
// the receiver adds the sender's contributions to its own, otherwise it copies the sender's.
ChunkMovement replay_steps(int ranks, const std::vector<std::string>& phase_names,
                           const std::vector<StepRecord>& steps, std::string source);

// Whether a ring of A ranks is a better picture than one of B: 4 to 16 ranks first (2 or 3 show
// almost nothing, more than 16 cannot be read cell by cell), the fewest among equals.
bool better_ring_to_draw(int a, int b);

// The ring schedule for N ranks: at scatter-reduce step i rank r receives chunk (r-i-1) mod N from
// r-1; at allgather step i it receives chunk (r-i) mod N.
ChunkMovement ring_schedule_movement(int ranks);

// The most ranks of a ring whose recorded steps are replayed: the replay keeps ranks² numbers per step.
constexpr int kLargestReplayedRing = 64;

// The ring case best to draw (better_ring_to_draw, then the smallest size) of a trace `ringsim run
// --timeline` wrote; nullopt when it holds no ring case. Every value read is checked (an integer in
// range, a rank, chunk or peer of the ring); throws InputError naming FILE and the JSON path when it
// is not such a trace or the ring best to draw has more than kLargestReplayedRing ranks.
std::optional<ChunkMovement> movement_from_timeline(const nlohmann::json& trace, const std::string& file);

}  // namespace ringsim
