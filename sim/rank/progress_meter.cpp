#include "progress_meter.h"

#include "engine_probes.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

namespace ringsim {
namespace {

constexpr std::chrono::seconds kWriteInterval{1};

}  // namespace

ProgressMeter::ProgressMeter(std::filesystem::path file, std::size_t sizes, int calls_per_size)
    : file_(std::move(file)), sizes_(sizes), calls_per_size_(calls_per_size), steps_per_call_(sizes, 0) {
  last_write_ = Clock::now();
  next_write_ = last_write_;  // the first step writes, so the file exists early
}

void ProgressMeter::start_call(std::size_t size_index) {
  if (file_.empty()) return;
  size_index_ = size_index;
  ++call_;
  steps_in_call_ = 0;
  if (Clock::now() >= next_write_) write();  // also for algorithms whose sends are not counted (mpi)
}

void ProgressMeter::end_call() {
  if (file_.empty()) return;
  steps_per_call_[size_index_] = steps_in_call_;
  steps_before_call_ += steps_in_call_;
  steps_in_call_ = 0;
}

void ProgressMeter::write() {
  const Clock::time_point now = Clock::now();
  const std::uint64_t steps = steps_before_call_ + steps_in_call_;
  const double wall_s = std::chrono::duration<double>(now - last_write_).count();
  nlohmann::json progress = {{"call", call_},
                             {"calls", static_cast<std::uint64_t>(sizes_) * static_cast<std::uint64_t>(calls_per_size_)},
                             {"size_index", size_index_},
                             {"sizes", sizes_},
                             {"step", steps_in_call_}};
  // Over less than a tenth of a second (the first write comes at the first step) the rate means nothing.
  progress["steps_per_s"] = wall_s >= 0.1 ? nlohmann::json(static_cast<double>(steps - steps_at_last_write_) / wall_s)
                                          : nlohmann::json();
  progress["steps_in_call"] = steps_per_call_[size_index_] > 0 ? nlohmann::json(steps_per_call_[size_index_]) : nlohmann::json();
  const auto simulated = simulated_clock_s();
  progress["simulated_s"] = simulated ? nlohmann::json(*simulated) : nlohmann::json();
  // Written beside and renamed, so the launcher never reads half a line.
  std::filesystem::path partial = file_;
  partial += ".partial";
  std::ofstream(partial) << progress.dump() << '\n';
  std::error_code ignored;  // progress is best effort: it must never fail the run
  std::filesystem::rename(partial, file_, ignored);
  steps_at_last_write_ = steps;
  last_write_ = now;
  next_write_ = now + kWriteInterval;
}

}  // namespace ringsim
