// The harness every algorithm shares: sizes, warm-up, barrier + MPI_Wtime timing of the slowest rank,
// a result check, per-step events, and the report rank 0 writes for the launcher.
// Builds unchanged as an SMPI shared object (sim time) and against Open MPI (wall time).
#include "allreduce.h"
#include "rank_memory.h"
#include "rank_nodes.h"
#include "rank_options.h"

#include <mpi.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <algorithm>

namespace ringsim {
namespace {

// Rank r contributes (r + i) % 16 at element i: sums stay exact small integers in float for any
// rank count up to 2^20, and vary along the buffer so a misplaced segment is caught.
constexpr int kPattern = 16;

float input_value(int rank, std::size_t i) { return static_cast<float>((rank + i) % kPattern); }

std::array<float, kPattern> expected_sums(int ranks) {
  std::array<float, kPattern> sums{};
  for (int i = 0; i < kPattern; ++i)
    for (int r = 0; r < ranks; ++r) sums[i] += input_value(r, static_cast<std::size_t>(i));
  return sums;
}

// Rank 0's summary of every rank's counts for one call (README "Results": traffic). Steps are the
// point-to-point messages a rank sends; the maximum over ranks is reported.
struct TrafficSummary {
  std::uint64_t max_rank_sent_bytes = 0;
  std::uint64_t max_rank_recv_bytes = 0;
  std::uint64_t total_bytes = 0;  // sent by all ranks together
  std::uint64_t steps = 0;
};

struct SizeOutcome {
  std::vector<double> times_s;  // slowest rank per timed iteration (rank 0 only)
  long long wrong = -1;         // -1: not checked (shared buffers)
  std::vector<double> events;   // rank 0: flattened events of all ranks, 8 values each
  TrafficSummary traffic;       // rank 0: of the last timed iteration
};

TrafficSummary gather_traffic(const TrafficCounts& mine, int rank, int size) {
  const std::uint64_t counts[3] = {mine.sent_bytes, mine.recv_bytes, mine.messages_sent};
  std::vector<std::uint64_t> all(rank == 0 ? 3 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(counts, 3, MPI_UINT64_T, all.data(), 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  TrafficSummary summary;
  for (std::size_t r = 0; r < all.size() / 3; ++r) {
    summary.max_rank_sent_bytes = std::max(summary.max_rank_sent_bytes, all[3 * r]);
    summary.max_rank_recv_bytes = std::max(summary.max_rank_recv_bytes, all[3 * r + 1]);
    summary.total_bytes += all[3 * r];
    summary.steps = std::max(summary.steps, all[3 * r + 2]);
  }
  return summary;
}

std::vector<double> flatten(const std::vector<StepEvent>& events, int rank) {
  std::vector<double> flat;
  for (const StepEvent& e : events)
    flat.insert(flat.end(), {static_cast<double>(rank), static_cast<double>(e.phase), static_cast<double>(e.step),
                             static_cast<double>(e.chunk), static_cast<double>(e.peer), static_cast<double>(e.bytes),
                             e.start_s, e.end_s});
  return flat;
}

std::vector<double> gather_events(const std::vector<double>& mine, int rank, int size) {
  int my_count = static_cast<int>(mine.size());
  std::vector<int> counts(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  MPI_Gather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<double> all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) displs[r] = total, total += counts[r];
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), my_count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  return all;
}

SizeOutcome run_size(AllreduceFn allreduce, const RankOptions& options, const std::vector<int>& node_of_rank,
                     std::uint64_t bytes, int rank, int size) {
  const std::size_t count = bytes / sizeof(float);
  const bool hold_values = bytes * static_cast<std::uint64_t>(size) <= options.check_limit_bytes;
  RankBuffers buffers(count, hold_values);
  if (buffers.hold_values())
    for (std::size_t i = 0; i < count; ++i) buffers.input()[i] = input_value(rank, i);

  const LocalKernels kernels(buffers.hold_values());
  StepLog log(!options.events_file.empty());
  TrafficCounts traffic;
  AllreduceContext ctx{MPI_COMM_WORLD, rank, size, kernels, log, buffers.scratch(), traffic, node_of_rank};

  for (int w = 0; w < options.warmup; ++w) allreduce(buffers.input(), buffers.output(), count, ctx);

  SizeOutcome outcome;
  for (int it = 0; it < options.iterations; ++it) {
    log.clear();
    traffic = {};
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    allreduce(buffers.input(), buffers.output(), count, ctx);
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) outcome.times_s.push_back(slowest);
  }

  if (buffers.hold_values()) {
    const auto expected = expected_sums(size);
    long long wrong = 0;
    for (std::size_t i = 0; i < count; ++i) wrong += buffers.output()[i] != expected[i % kPattern] ? 1 : 0;
    MPI_Reduce(&wrong, &outcome.wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  if (!options.events_file.empty()) outcome.events = gather_events(flatten(log.events(), rank), rank, size);
  outcome.traffic = gather_traffic(traffic, rank, size);
  return outcome;
}

}  // namespace
}  // namespace ringsim

int main(int argc, char** argv) {
  using namespace ringsim;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  RankOptions options;
  std::string error = parse_rank_options(argc, argv, options);
  const AllreduceAlgorithm algorithm = find_allreduce(options.algorithm);
  if (error.empty() && algorithm.run == nullptr) error = "unknown algorithm " + options.algorithm;
  if (!error.empty()) {
    if (rank == 0) std::fprintf(stderr, "ringsim-rank: %s\n%s\n", error.c_str(), kRankUsage);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
  }

  nlohmann::json report = {{"algorithm", options.algorithm}, {"ranks", size},
                           {"smpi", running_under_smpi()}, {"sizes", nlohmann::json::array()}};
  std::ofstream events_out;
  if (rank == 0 && !options.events_file.empty()) events_out.open(options.events_file);
  const nlohmann::json phase_names(kStepPhaseNames);
  // Before any timing: hierarchical needs every rank's node.
  const std::vector<int> node_of_rank = rank_node_indices(MPI_COMM_WORLD);

  for (std::uint64_t bytes : options.sizes) {
    SizeOutcome outcome = run_size(algorithm.run, options, node_of_rank, bytes, rank, size);
    if (rank != 0) continue;
    nlohmann::json entry = {{"bytes", bytes}, {"count", bytes / sizeof(float)}, {"times_s", outcome.times_s}};
    entry["wrong"] = outcome.wrong < 0 ? nlohmann::json() : nlohmann::json(outcome.wrong);
    const TrafficSummary& t = outcome.traffic;
    entry["traffic"] = !algorithm.traffic_counted
                           ? nlohmann::json()
                           : nlohmann::json({{"max_rank_sent_bytes", t.max_rank_sent_bytes},
                                             {"max_rank_recv_bytes", t.max_rank_recv_bytes},
                                             {"total_bytes", t.total_bytes},
                                             {"steps", t.steps}});
    report["sizes"].push_back(entry);
    if (events_out.is_open())
      events_out << nlohmann::json({{"bytes", bytes},
                                    {"fields", {"rank", "phase", "step", "chunk", "peer", "bytes", "start_s", "end_s"}},
                                    {"phase_names", phase_names},
                                    {"values", outcome.events}})
                 << '\n';
    std::printf("ringsim-rank: %s %d ranks %llu bytes done\n", options.algorithm.c_str(), size,
                static_cast<unsigned long long>(bytes));
  }

  if (rank == 0) {
    std::ofstream out(options.out_file);
    out << report.dump(1) << '\n';
    if (!out) {
      std::fprintf(stderr, "ringsim-rank: cannot write %s\n", options.out_file.c_str());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Finalize();
  return 0;
}
