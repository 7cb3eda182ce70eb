#include "results_table.h"

#include "../nccl/nccl_plan.h"
#include "../model/algorithm_registry.h"

#include "../common/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

namespace ringsim {
namespace {

// "node0:4 node1:3 node2:1" (block) or the node of each rank in ring order (cyclic; the rings of NCCL's
// algorithms are node-contiguous whatever the rank order, rank/nccl_channel_rings.h).
std::string rank_layout(const PlacementSpec& placement, const ClusterLayout& layout, std::string_view algorithm) {
  std::vector<std::string> parts;
  if (placement.order == RankOrder::block) {
    for (std::size_t k = 0; k < placement.ranks_per_node.size(); ++k)
      if (placement.ranks_per_node[k] > 0) parts.push_back(fmt::format("{}:{}", layout.nodes[k].name, placement.ranks_per_node[k]));
    return fmt::format("{}", fmt::join(parts, " "));
  }
  std::vector<int> nodes = node_of_ranks(placement);
  const AlgorithmRow* row = find_algorithm_row(algorithm);
  if (row != nullptr && !row->lays_rank_order_ring) {
    // NCCL orders its ring by node (nodes in order of their first rank), whatever the rank order.
    std::vector<int> first_seen;
    for (int node : nodes)
      if (std::find(first_seen.begin(), first_seen.end(), node) == first_seen.end()) first_seen.push_back(node);
    std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) {
      return std::find(first_seen.begin(), first_seen.end(), a) < std::find(first_seen.begin(), first_seen.end(), b);
    });
  }
  for (int node : nodes) parts.push_back(std::to_string(node));
  return fmt::format("ring visits nodes {}", fmt::join(parts, ","));
}

// Per-rank traffic columns help when algorithms are compared (the ring's 2(N-1)/N against a server's
// N-1); a ring-only scenario keeps nccl-tests' columns.
bool shows_traffic(const Scenario& scenario) {
  return std::any_of(scenario.algorithms.begin(), scenario.algorithms.end(), [](const std::string& a) { return !names_algorithm(a, AlgorithmId::ring); });
}

// Max bytes one rank sent and received, in units of the buffer size, and its most messages sent.
std::string traffic_columns(const SizeResult& size) {
  if (!size.traffic) return fmt::format(" {:>7} {:>7} {:>6}", "N/A", "N/A", "N/A");
  const double s = static_cast<double>(size.bytes);
  return fmt::format(" {:>7.3f} {:>7.3f} {:>6}", static_cast<double>(size.traffic->max_rank_sent_bytes) / s,
                     static_cast<double>(size.traffic->max_rank_recv_bytes) / s, size.traffic->steps);
}

}  // namespace

std::string case_table(const CaseResult& result, const Scenario& scenario, const ClusterLayout& layout) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "# {}: {} ranks ({}); median of {} iteration{} after {} warm-up\n", case_name(result.spec, CaseNaming::table),
                 result.ranks, rank_layout(result.spec.placement, layout, result.spec.algorithm), scenario.iterations,
                 scenario.iterations == 1 ? "" : "s", scenario.warmup);
  const bool traffic = shows_traffic(scenario);
  // The closed form of NCCL's algorithms is NCCL's own time model: shown beside the simulated time,
  // with what ran at each size (algorithm and protocol).
  const std::string& algorithm = result.spec.algorithm;
  const bool nccl_model = is_nccl_algorithm(algorithm) &&
                          std::any_of(result.sizes.begin(), result.sizes.end(), [](const SizeResult& s) { return s.closed_form_s; });
  const bool ran = std::any_of(result.sizes.begin(), result.sizes.end(), [](const SizeResult& s) { return s.nccl_ran; });
  fmt::format_to(it, "#{:>11} {:>12} {:>6} {:>12} {:>11} {:>11} {:>7}{}{}{}\n", "size", "count", "type", "time(us)",
                 "algbw(GB/s)", "busbw(GB/s)", "#wrong",
                 traffic ? fmt::format(" {:>7} {:>7} {:>6}", "sent/S", "recv/S", "msgs") : "",
                 nccl_model ? fmt::format(" {:>15}", "nccl model(us)") : "", ran ? fmt::format(" {:>12}", "nccl ran") : "");
  for (const SizeResult& size : result.sizes) {
    const double time = size.median_s();
    fmt::format_to(it, " {:>11} {:>12} {:>6} {:>12.2f} {:>11.3f} {:>11.3f} {:>7}{}{}{}\n", size.bytes, size.bytes / 4,
                   "float", time * 1e6, algbw_GBps(size.bytes, time), busbw_GBps(size.bytes, time, result.ranks, result.spec.collective),
                   size.wrong ? std::to_string(*size.wrong) : "N/A", traffic ? traffic_columns(size) : "",
                   nccl_model && size.closed_form_s ? fmt::format(" {:>15.2f}", *size.closed_form_s * 1e6) : "",
                   ran ? fmt::format(" {:>12}", size.nccl_ran.value_or("")) : "");
  }
  return fmt::to_string(out);
}

std::string comparison_table(const std::vector<CaseResult>& results) {
  if (results.size() < 2) return "";
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "# Comparison: median time, and slowdown against {}\n", case_name(results.front().spec, CaseNaming::table));
  fmt::format_to(it, "#{:>9}", "size");
  for (const auto& r : results) fmt::format_to(it, " {:>22}", case_name(r.spec, CaseNaming::table));
  fmt::format_to(it, "\n");
  for (std::size_t s = 0; s < results.front().sizes.size(); ++s) {
    const double reference = results.front().sizes[s].median_s();
    fmt::format_to(it, " {:>9}", format_bytes(results.front().sizes[s].bytes));
    for (const auto& r : results) {
      const double time = r.sizes[s].median_s();
      fmt::format_to(it, " {:>22}", fmt::format("{:.3f} ms ({:.2f}x)", time * 1e3, reference > 0 ? time / reference : 0.0));
    }
    fmt::format_to(it, "\n");
  }
  return fmt::to_string(out);
}

}  // namespace ringsim
