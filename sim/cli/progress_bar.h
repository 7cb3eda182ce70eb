// `ringsim sweep run`'s progress on standard error: cases done of total, rate, estimated time left.
// On a terminal one line redrawn in place; otherwise (logs, Slurm) a line per finished case.
#pragma once

#include <chrono>
#include <cstddef>

namespace ringsim {

class ProgressBar {
 public:
  ProgressBar(std::size_t total, bool quiet);
  void case_done(bool ok);
  // Ends the redrawn line, so that what follows starts on its own.
  void finish();

 private:
  void draw() const;

  std::size_t total_, done_ = 0, failed_ = 0;
  bool quiet_, terminal_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ringsim
