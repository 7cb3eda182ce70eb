// Measured against simulated, size by size, and the summary the validator judges by.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct ComparedSize {
  std::string placement;  // "4-3-1"
  std::string order;      // "block" / "cyclic"
  int ranks = 0;
  std::uint64_t bytes = 0;
  double measured_s = 0;   // median of the measured points at this size
  double simulated_s = 0;  // ringsim run's time_s
  // NCCL's algorithms: NCCL's own time model at this size (algorithm_costs.h) and what the simulation
  // ran, "Ring/Simple"; else nullopt.
  std::optional<double> nccl_model_s = std::nullopt;
  std::optional<std::string> nccl_ran = std::nullopt;

  double error() const { return simulated_s / measured_s - 1; }  // +0.05: simulation 5% slower
  std::optional<double> nccl_model_error() const {
    return nccl_model_s ? std::optional(*nccl_model_s / measured_s - 1) : std::nullopt;
  }
};

struct ErrorSummary {
  std::size_t count = 0;
  double median_abs_error = 0;
  double geomean_error = 0;  // exp(mean(log(simulated/measured))) - 1: the bias
  double worst_error = 0;    // largest |error|, with its sign
  std::string worst;         // "4-3-1 cyclic 64MiB"
};

// Over the sizes at or above MIN_BYTES (all when 0).
ErrorSummary summarize(const std::vector<ComparedSize>& sizes, std::uint64_t min_bytes);

}  // namespace ringsim
