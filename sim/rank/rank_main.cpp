// The harness every algorithm shares: sizes, warm-up, barrier + MPI_Wtime timing of the slowest rank,
// a result check, per-step events, and the report rank 0 writes for the launcher. Outside the timed
// calls it sends O(N) messages per timed call (a barrier and a reduction) and per size (reductions;
// the events gather only when events are recorded): never a collective whose cost grows faster.
// Builds unchanged as an SMPI shared object (sim time) and against Open MPI (wall time).
#include "allreduce.h"
#include "collective_data.h"
#include "collective_registry.h"
#include "engine_probes.h"
#include "progress_meter.h"
#include "rank_memory.h"
#include "rank_options.h"
#include "rank_report.h"

#include <mpi.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <algorithm>

namespace ringsim {
namespace {

struct SizeOutcome {
  std::vector<double> times_s;  // slowest rank per timed iteration (rank 0 only)
  long long wrong = -1;         // -1: not checked (shared buffers)
  std::vector<double> events;   // rank 0: flattened events of all ranks, 8 values each
  TrafficSummary traffic;       // rank 0: of the last timed iteration (rank_report.h)
};

// Two reductions (O(N) small messages) rather than a gather of N records to rank 0: the MPI library
// combines on the way as it sees fit, and rank 0 holds 4 numbers whatever N.
TrafficSummary reduce_traffic(const TrafficCounts& mine) {
  const std::uint64_t maxima[3] = {mine.sent_bytes, mine.recv_bytes, mine.messages_sent};
  std::uint64_t max_of_all[3] = {0, 0, 0};
  MPI_Reduce(maxima, max_of_all, 3, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  TrafficSummary summary;
  MPI_Reduce(&mine.sent_bytes, &summary.total_bytes, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  summary.max_rank_sent_bytes = max_of_all[0];
  summary.max_rank_recv_bytes = max_of_all[1];
  summary.steps = max_of_all[2];
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

// Whether a size's buffers hold values that are checked (#wrong), or are SMPI-shared.
bool holds_values(std::uint64_t bytes, const RankOptions& options, int size) {
  return bytes * static_cast<std::uint64_t>(size) <= options.check_limit_bytes;
}

// SHARED: the buffers of every size that holds no values, mapped once at the largest such size.
SizeOutcome run_size(const AllreduceAlgorithm& algorithm, const RankOptions& options, std::size_t size_index,
                     ProgressMeter& progress, RankBuffers* shared, int rank, int size) {
  const std::uint64_t bytes = options.sizes[size_index];
  const AllreduceFn allreduce = algorithm.run;
  const std::size_t count = bytes / sizeof(float);
  const bool hold_values = holds_values(bytes, options, size);
  std::optional<RankBuffers> own;
  if (hold_values || shared == nullptr) own.emplace(count, hold_values);
  RankBuffers& buffers = own ? *own : *shared;
  if (buffers.hold_values()) fill_input(options.collective, rank, size, count, buffers.input());

  const LocalKernels kernels(buffers.hold_values());
  StepLog log(!options.events_file.empty());
  TrafficCounts traffic;
  AllreduceContext ctx{MPI_COMM_WORLD, rank, size, kernels, log, buffers.scratch(), traffic, options.node_of_rank,
                       progress, options.nccl_for(size_index), &options.nccl_rail_of_rank};

  // NCCL's software cost of the call comes before its first transfer, on every rank alike.
  const auto call = [&] {
    if (ctx.nccl.software_s > 0) sleep_simulated(ctx.nccl.software_s);
    allreduce(buffers.input(), buffers.output(), count, ctx);
  };
  for (int w = 0; w < options.warmup; ++w) {
    progress.start_call(size_index);
    call();
    progress.end_call();
  }

  SizeOutcome outcome;
  for (int it = 0; it < options.iterations; ++it) {
    log.clear();
    traffic = {};
    MPI_Barrier(MPI_COMM_WORLD);
    progress.start_call(size_index);
    const double start = MPI_Wtime();
    call();
    const double mine = MPI_Wtime() - start;
    progress.end_call();
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) outcome.times_s.push_back(slowest);
  }

  if (buffers.hold_values()) {
    long long wrong = wrong_outputs(options.collective, rank, size, count, buffers.output());
    MPI_Reduce(&wrong, &outcome.wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  if (!options.events_file.empty()) outcome.events = gather_events(flatten(log.events(), rank), rank, size);
  if (algorithm.traffic_counted) outcome.traffic = reduce_traffic(traffic);
  return outcome;
}

// Why the request cannot run, or "" when it can: the algorithm must exist and have what it needs.
// Rank 0 also starts counting network messages when asked (SMPI only).
std::string request_error(const RankOptions& options, const AllreduceAlgorithm& algorithm, int rank) {
  if (algorithm.run == nullptr)
    return options.collective == Collective::all_reduce
               ? "unknown algorithm " + options.algorithm
               : "collective " + std::string(collective_name(options.collective)) + " has no algorithm " + options.algorithm;
  if (algorithm.needs_nodes && options.node_of_rank.empty()) return options.algorithm + " needs --nodes (the node of every rank)";
  if (rank == 0 && !options.count_messages_file.empty() && !count_network_messages_until_end(options.count_messages_file))
    return "--count-messages works only under SMPI";
  return "";
}

// Runs every size; rank 0 returns the report (and writes the events file), the others an empty one.
RankReport run_sizes(const AllreduceAlgorithm& algorithm, const RankOptions& options, int rank, int size) {
  RankReport report{options.algorithm, size, running_under_smpi(), {}};
  std::ofstream events_out;
  if (rank == 0 && !options.events_file.empty()) events_out.open(options.events_file);
  const nlohmann::json phase_names(kStepPhaseNames);
  ProgressMeter progress(rank == 0 ? options.progress_file : std::string(), options.sizes.size(),
                         options.warmup + options.iterations);

  // Mapping SMPI-shared buffers anew for every size (mmap with its page tables populated, then
  // munmap) took 40% of a 32-rank validate over many sizes of 200 MiB; their values mean nothing,
  // so one mapping at the largest such size serves all of them.
  std::size_t shared_count = 0;
  for (std::uint64_t bytes : options.sizes)
    if (!holds_values(bytes, options, size)) shared_count = std::max<std::size_t>(shared_count, bytes / sizeof(float));
  std::optional<RankBuffers> shared;
  if (shared_count > 0) shared.emplace(shared_count, false);

  for (std::size_t size_index = 0; size_index < options.sizes.size(); ++size_index) {
    const std::uint64_t bytes = options.sizes[size_index];
    SizeOutcome outcome = run_size(algorithm, options, size_index, progress, shared ? &*shared : nullptr, rank, size);
    if (rank != 0) continue;
    report.sizes.push_back({bytes, std::move(outcome.times_s), outcome.wrong < 0 ? std::nullopt : std::optional(outcome.wrong),
                            algorithm.traffic_counted ? std::optional(outcome.traffic) : std::nullopt});
    if (events_out.is_open())
      events_out << nlohmann::json({{"bytes", bytes},
                                    {"fields", kEventFields},
                                    {"phase_names", phase_names},
                                    {"values", outcome.events}})
                 << '\n';
    std::printf("ringsim-rank: %s %d ranks %llu bytes done\n", options.algorithm.c_str(), size,
                static_cast<unsigned long long>(bytes));
  }
  return report;
}

bool write_report(const RankReport& report, const std::string& file) {
  std::ofstream out(file);
  out << rank_report_json(report).dump(1) << '\n';
  return static_cast<bool>(out);
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
  std::string error = parse_rank_options(argc, argv, size, options);
  const AllreduceAlgorithm algorithm = find_collective_algorithm(options.collective, options.algorithm);
  if (error.empty()) error = request_error(options, algorithm, rank);
  if (!error.empty()) {
    if (rank == 0) std::fprintf(stderr, "ringsim-rank: %s\n%s\n", error.c_str(), kRankUsage);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
  }

  const RankReport report = run_sizes(algorithm, options, rank, size);
  if (rank == 0 && !write_report(report, options.out_file)) {
    std::fprintf(stderr, "ringsim-rank: cannot write %s\n", options.out_file.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
