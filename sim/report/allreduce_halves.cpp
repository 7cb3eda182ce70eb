// Plot e of the report: the ring allreduce taught as its two halves. Its scatter-reduce phase is a
// reduce-scatter and its allgather phase an all-gather (ring_phase, sim/rank/group_collectives.h, walks
// both for the three collectives), so a scenario that runs all three by the ring shows the allreduce's
// time beside its halves' and each half step by step, from the ring's schedule (ring_schedule.h).
#include "plot_style.h"
#include "report_figures.h"

#include "../common/units.h"
#include "../model/algorithm_registry.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

using nlohmann::json;

constexpr std::array kHalves{"all_reduce", "reduce_scatter", "all_gather"};

// The ring rows of one case (placement, order, variant), per collective of kHalves and size.
struct HalvesCase {
  std::string name;  // "4-2-2 block"
  int ranks = 0;
  std::map<std::string, std::map<std::uint64_t, const ResultRow*>> rows;  // collective -> size -> row

  std::vector<std::uint64_t> common_sizes() const {
    std::vector<std::uint64_t> sizes;
    for (const auto& [bytes, row] : rows.at(kHalves[0]))
      if (rows.at(kHalves[1]).contains(bytes) && rows.at(kHalves[2]).contains(bytes)) sizes.push_back(bytes);
    return sizes;
  }
  double time(const char* collective, std::uint64_t bytes) const { return rows.at(collective).at(bytes)->time_s; }
};

// The first ring case of the results that ran all three at a common size.
std::optional<HalvesCase> halves_case(const ResultsDocument& results) {
  std::vector<HalvesCase> cases;
  for (const ResultRow& row : results.rows) {
    if (!names_algorithm(row.algorithm, AlgorithmId::ring)) continue;
    const std::string name = row.placement + " " + row.order + (row.variant.empty() ? "" : " [" + row.variant + "]");
    auto it = std::find_if(cases.begin(), cases.end(), [&](const HalvesCase& c) { return c.name == name && c.ranks == row.ranks; });
    if (it == cases.end()) it = cases.insert(cases.end(), HalvesCase{name, row.ranks, {}});
    it->rows[row.collective][row.bytes] = &row;
  }
  for (const HalvesCase& c : cases)
    if (std::all_of(kHalves.begin(), kHalves.end(), [&](const char* name) { return c.rows.contains(name); }) && !c.common_sizes().empty())
      return c;
  return std::nullopt;
}

std::string milliseconds(double seconds) { return fmt::format("{:.3f} ms", seconds * 1e3); }

json time_line(const std::string& name, const std::vector<std::uint64_t>& sizes, const std::vector<double>& times, std::size_t index) {
  json x = json::array(), y = json::array();
  for (std::size_t i = 0; i < sizes.size(); ++i) x.push_back(sizes[i]), y.push_back(times[i] * 1e3);
  return {{"type", "scatter"}, {"mode", "lines+markers"}, {"name", name}, {"x", x}, {"y", y},
          {"line", {{"color", case_colour(index)}, {"dash", line_dash(index)}}},
          {"marker", {{"symbol", line_symbol(index)}}},
          {"hovertemplate", name + ": %{y:.3f} ms<extra></extra>"}};
}

ReportSection times_section(const HalvesCase& c) {
  const std::vector<std::uint64_t> sizes = c.common_sizes();
  std::vector<double> all_reduce, reduce_scatter, all_gather, sum;
  ReportTable table{fmt::format("{}, {} ranks: simulated median times", c.name, c.ranks),
                    {"size", "all_reduce", "reduce_scatter", "all_gather", "sum of the halves", "sum / all_reduce"}, {}};
  for (std::uint64_t bytes : sizes) {
    all_reduce.push_back(c.time("all_reduce", bytes));
    reduce_scatter.push_back(c.time("reduce_scatter", bytes));
    all_gather.push_back(c.time("all_gather", bytes));
    sum.push_back(reduce_scatter.back() + all_gather.back());
    table.rows.push_back({format_bytes(bytes), milliseconds(all_reduce.back()), milliseconds(reduce_scatter.back()),
                          milliseconds(all_gather.back()), milliseconds(sum.back()), fmt::format("{:.3f}x", sum.back() / all_reduce.back())});
  }
  json data = json::array({time_line("all_reduce", sizes, all_reduce, 0), time_line("reduce_scatter", sizes, reduce_scatter, 1),
                           time_line("all_gather", sizes, all_gather, 2),
                           time_line("reduce_scatter + all_gather", sizes, sum, 3)});
  const auto [lowest, highest] = std::minmax_element(reduce_scatter.begin(), reduce_scatter.end());
  json layout = {{"title", {{"text", fmt::format("The ring allreduce and its halves, {} ({} ranks)", c.name, c.ranks)}}},
                 {"xaxis", size_axis(sizes.front(), sizes.back())},
                 {"yaxis", log_time_axis(std::min(*lowest, *std::min_element(all_gather.begin(), all_gather.end())),
                                         *std::max_element(all_reduce.begin(), all_reduce.end()))},
                 {"height", 420}, {"margin", {{"t", 50}}}};
  const std::size_t last = sizes.size() - 1;
  return {"plot-allreduce-halves",
          "Allreduce = reduce-scatter, then all-gather",
          fmt::format("The ring allreduce runs N−1 scatter-reduce steps, then N−1 allgather steps. The first half is a "
                      "reduce-scatter: afterwards each rank holds one chunk (S/N) summed over all N ranks. The second half "
                      "is an all-gather of those chunks: afterwards every rank holds the whole sum. Each half moves "
                      "(N−1)/N·S per rank each way, so the allreduce moves 2(N−1)/N·S, and its busbw factor is twice "
                      "theirs. Simulated here as three collectives on the same ring: at {} the allreduce takes {}, "
                      "the reduce-scatter {} and the all-gather {}; the halves add up to {}, {:.3f}x the allreduce's time{}. "
                      "The allreduce's line and the sum's lie on each other where that ratio is near 1.",
                      format_bytes(sizes[last]), milliseconds(all_reduce[last]), milliseconds(reduce_scatter[last]),
                      milliseconds(all_gather[last]), milliseconds(sum[last]), sum[last] / all_reduce[last],
                      last == 0 ? ""
                                : fmt::format(" (at {}, where latency rather than bandwidth sets the time, {:.3f}x)", format_bytes(sizes[0]),
                                              sum[0] / all_reduce[0])),
          json{{"data", data}, {"layout", layout}},
          {table}};
}

// The steps of MOVEMENT whose label starts with PHASE.
ChunkMovement phase_of(const ChunkMovement& movement, const std::string& phase) {
  ChunkMovement half = movement;
  half.steps.clear();
  for (const MovementStep& step : movement.steps)
    if (step.label.starts_with(phase)) half.steps.push_back(step);
  return half;
}

}  // namespace

std::vector<ReportSection> allreduce_halves_sections(const ResultsDocument& results) {
  const auto c = halves_case(results);
  if (!c) return {};
  // The ring drawn has the case's ranks when a picture of them can be read cell by cell.
  const int drawn = c->ranks >= 2 && c->ranks <= 16 ? c->ranks : 8;
  const ChunkMovement movement = ring_schedule_movement(drawn);
  const std::string ring = fmt::format("the ring's schedule for N = {}", drawn);
  ReportSection scatter{"plot-halves-reduce-scatter", fmt::format("Half 1, reduce-scatter: the chunk each rank receives and adds (N = {})", drawn),
                        fmt::format("The allreduce's first N−1 = {} steps, from {}. At step i rank r receives chunk (r−i−1) mod N "
                                    "from its left neighbour and adds its own copy before passing it on at the next step: a chunk "
                                    "gathers one more rank's contribution per hop. After the last step rank r holds chunk "
                                    "(r+1) mod N summed over all N ranks: the reduce-scatter's result (ringsim's reduce_scatter walks "
                                    "the same ring one position back, so that rank r ends with chunk r).",
                                    drawn - 1, ring),
                        received_chunks_figure(phase_of(movement, "scatter_reduce"), "Reduce-scatter: chunk received and added at each step")};
  ReportSection gather{"plot-halves-all-gather", fmt::format("Half 2, all-gather: the chunk each rank receives and keeps (N = {})", drawn),
                       fmt::format("The allreduce's last N−1 = {} steps, from {}. Each rank first sends the chunk it finished, "
                                   "then passes on the one it received last: the finished chunks travel round the ring, copied "
                                   "without arithmetic, until every rank holds all N. This is the all-gather, whose piece per "
                                   "rank is the reduce-scatter's result.",
                                   drawn - 1, ring),
                       received_chunks_figure(phase_of(movement, "allgather"), "All-gather: chunk received and kept at each step")};
  return {times_section(*c), std::move(scatter), std::move(gather)};
}

}  // namespace ringsim
