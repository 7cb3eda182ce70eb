#include "trace_input.h"

#include "../common/input_error.h"
#include "../validate/results_trace_agreement.h"

#include <fmt/format.h>

namespace ringsim {

TraceInput read_trace_input(const ParsedArguments& args, const Scenario& scenario, const std::string& command,
                            const std::optional<std::string>& collective) {
  const auto file = args.value("--measured");
  if (!file) throw UsageError(fmt::format("ringsim {}: --measured TRACE is required", command));
  TraceInput input{*file, read_trace(*file, args.value("--format"), collective ? collective : args.value("--collective")), {}};
  if (!args.value("--select")) check_results_agree_with_scenario(input.trace, *file, scenario);
  std::optional<int> ranks;
  if (auto text = args.value("--ranks")) ranks = positive_int_option("--ranks", *text);
  else if (!input.trace.ranks && input.trace.format == "imb" && scenario.placements.size() == 1)
    ranks = scenario.placements[0].total_ranks();
  const auto select = args.value("--select") ? parse_selection("--select", *args.value("--select")) : std::vector<std::string>{};
  input.grouped = group_trace(input.trace, scenario, *file, ranks, select);
  if (!input.trace.section.empty()) fmt::print("# read from the trace: {}\n", input.trace.section);
  return input;
}

void check_trace_placements_fit(const TraceInput& input, const Scenario& scenario, const ClusterLayout& layout) {
  for (const MeasuredCase& measured : input.grouped.cases)
    if (auto misfit = placement_misfit(measured.placement, layout))
      throw InputError(fmt::format("{}: the run's placement {} does not fit the scenario's topology {}: {}", input.file,
                                   measured.placement.label(), scenario.topology.string(), *misfit));
}

void print_placement_source(const TraceInput& input, const Scenario& scenario, bool quiet) {
  const auto& header = input.grouped.from_header;
  if (!header) return;
  if (input.grouped.placement_from_header) {
    fmt::print("# placement inferred from the trace's header: {}\n", header->describe());
    return;
  }
  const PlacementSpec& chosen = scenario.placements.front();
  const bool same = header->placement && header->placement->ranks_per_node == chosen.ranks_per_node &&
                    header->placement->order == chosen.order;
  if (!quiet && !same)
    fmt::print(stderr, "ringsim: note: the trace's header implies {}; simulating the scenario's placement {}\n",
               header->describe(), chosen.label());
}

}  // namespace ringsim
