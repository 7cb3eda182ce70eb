#include "progress_bar.h"

#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <unistd.h>

namespace ringsim {

ProgressBar::ProgressBar(std::size_t total, bool quiet)
    : total_(total), quiet_(quiet), terminal_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {
  if (!quiet_ && terminal_) draw();
}

void ProgressBar::case_done(bool ok) {
  ++done_;
  if (!ok) ++failed_;
  if (!quiet_) draw();
}

void ProgressBar::finish() {
  if (!quiet_ && terminal_) fmt::print(stderr, "\n");
}

void ProgressBar::draw() const {
  constexpr std::size_t kWidth = 30;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const std::string eta = done_ == 0 || rate <= 0 ? "ETA ?" : fmt::format("ETA {:.0f} s", static_cast<double>(total_ - done_) / rate);
  const std::size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
  const std::string failed = failed_ == 0 ? "" : fmt::format(", {} failed", failed_);
  const std::string text = fmt::format("[{}{}] {}/{} cases{}, {:.2f} cases/s, {}", std::string(filled, '#'),
                                       std::string(kWidth - filled, '.'), done_, total_, failed, rate, eta);
  if (terminal_) fmt::print(stderr, "\r{}\x1b[K", text);
  else fmt::print(stderr, "{}\n", text);
  std::fflush(stderr);
}

}  // namespace ringsim
