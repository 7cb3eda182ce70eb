#include "measured_cases.h"

#include "../common/input_error.h"
#include "../common/statistics.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {
std::vector<std::string> parse_selection(const std::string& option, const std::string& text) {
  std::vector<std::string> labels;
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    std::string label = text.substr(from, comma - from);
    const auto slash = label.find('/');
    if (slash == std::string::npos) label += "/block";
    if (!parse_rank_counts(label.substr(0, label.find('/'))) || !parse_rank_order(label.substr(label.find('/') + 1)))
      throw InputError(fmt::format("{} {}: \"{}\" is not PLACEMENT[/block|/cyclic], e.g. 4-2-2/cyclic", option, text,
                                   text.substr(from, comma - from)));
    labels.push_back(label);
    from = comma + 1;
  }
  return labels;
}

namespace {

// One rank: NCCL's allreduce is then a copy inside one GPU's memory, which no algorithm of ringsim
// runs (a one-rank case sends nothing and would report a time of almost nothing).
void refuse_one_rank(const PlacementSpec& placement, const std::string& trace_file, const GroupedTrace& grouped) {
  if (placement.total_ranks() != 1) return;
  throw InputError(fmt::format("{}{}: a run of one rank ({}): its allreduce is a local copy inside one GPU, which ringsim "
                               "does not simulate; validate runs of 2 ranks or more", trace_file,
                               grouped.from_header ? fmt::format(":{}", grouped.from_header->line) : "", placement.label()));
}

}  // namespace

GroupedTrace group_trace(const MeasuredTrace& trace, const Scenario& scenario, const std::string& trace_file,
                         const std::optional<int>& ranks_filter, const std::vector<std::string>& select) {
  std::map<std::pair<std::string, std::string>, std::map<std::uint64_t, std::vector<double>>> times;
  std::set<std::uint64_t> sizes, skipped;
  for (const auto& point : trace.points) {
    if (ranks_filter && point.ranks && *point.ranks != *ranks_filter) continue;
    if (!select.empty() && std::find(select.begin(), select.end(), point.placement + "/" + point.order) == select.end())
      continue;
    if (point.bytes < 4 || point.bytes % 4 != 0) {
      skipped.insert(point.bytes);
      continue;
    }
    sizes.insert(point.bytes);
    times[{point.placement, point.order}][point.bytes].push_back(point.time_s);
  }
  if (sizes.empty())
    throw InputError(fmt::format("{}: no measured size to compare (sizes must be whole float32 buffers{}{})", trace_file,
                                 ranks_filter ? fmt::format(", at {} ranks", *ranks_filter) : "",
                                 select.empty() ? "" : ", of the selected placements"));

  GroupedTrace grouped;
  grouped.collective = trace.collective;
  grouped.sizes.assign(sizes.begin(), sizes.end());
  grouped.skipped.assign(skipped.begin(), skipped.end());
  for (const auto& [key, by_bytes] : times) {
    MeasuredCase measured;
    if (key.first.empty()) {
      if (trace.run && !trace.run->ranks.empty()) grouped.from_header = placement_of_run(*trace.run);
      if (scenario.placements.empty() && grouped.from_header) {
        const RunPlacement& header = *grouped.from_header;
        if (!header.placement)
          throw InputError(fmt::format("{}:{}: {}; give the scenario the placement", trace_file, header.line, header.why_not));
        measured.placement = *header.placement;
        grouped.placement_from_header = true;
      } else if (scenario.placements.size() != 1) {
        throw InputError(fmt::format("{}: {} traces do not say where ranks ran; give a scenario with exactly one "
                                     "placement (this one has {})",
                                     scenario.file.string(), trace.format,
                                     scenario.placements.empty() ? "none" : std::to_string(scenario.placements.size())));
      } else {
        measured.placement = scenario.placements.front();
      }
      const int ranks = measured.placement.total_ranks();
      const auto trace_ranks = ranks_filter ? ranks_filter : trace.ranks;
      if (trace_ranks && *trace_ranks != ranks)
        throw InputError(fmt::format("{}: the trace ran {} ranks but the scenario's placement {} has {}", trace_file,
                                     *trace_ranks, measured.placement.ranks_text(), ranks));
    } else {
      auto counts = parse_rank_counts(key.first);
      auto order = parse_rank_order(key.second);
      if (!counts || !order)
        throw InputError(fmt::format("{}: placement \"{}\" order \"{}\" is not one ringsim knows", trace_file, key.first, key.second));
      measured.placement = {*counts, *order};
    }
    refuse_one_rank(measured.placement, trace_file, grouped);
    for (const auto& [bytes, samples] : by_bytes) measured.median_time_s[bytes] = median(samples);
    grouped.cases.push_back(std::move(measured));
  }
  return grouped;
}

}  // namespace ringsim
