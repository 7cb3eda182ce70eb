// Rank 0's progress through a run, for the launcher to relay on long cases (docs/commands.md, `ringsim run`): where
// the run is (call k of K, the rank's step in the current call), the simulated clock and the steps
// per wall-clock second. Rewritten into a small JSON file at most once a second, never through MPI
// and never with MPI_Wtime, so simulated times cannot change. Steps are the rank's point-to-point
// sends, counted by AllreduceContext's wrappers (the traffic's "steps"), so no algorithm reports its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace ringsim {

class ProgressMeter {
 public:
  // Disabled (every call a cheap no-op) when FILE is empty. CALLS_PER_SIZE = warm-up + timed calls.
  ProgressMeter(std::filesystem::path file, std::size_t sizes, int calls_per_size);

  // Before each call of the allreduce (warm-up or timed): SIZE_INDEX into the run's sizes.
  void start_call(std::size_t size_index);
  // One point-to-point send of this rank (called by the counted wrappers).
  void note_step() {
    if (file_.empty()) return;
    ++steps_in_call_;
    if (Clock::now() >= next_write_) write();
  }
  // After each call: remembers its steps, the "of" of the next calls of the same size.
  void end_call();

 private:
  using Clock = std::chrono::steady_clock;
  void write();

  std::filesystem::path file_;
  std::size_t sizes_;
  int calls_per_size_;
  std::vector<std::uint64_t> steps_per_call_;  // by size index; 0 while unknown
  std::size_t size_index_ = 0;
  std::uint64_t call_ = 0;  // 1-based over the whole run
  std::uint64_t steps_in_call_ = 0;
  std::uint64_t steps_at_last_write_ = 0;  // over the whole run
  std::uint64_t steps_before_call_ = 0;    // over the whole run, before the current call
  Clock::time_point last_write_;
  Clock::time_point next_write_;
};

}  // namespace ringsim
