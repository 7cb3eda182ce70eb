#include "trace_input.h"

#include <fmt/format.h>

namespace ringsim {

TraceInput read_trace_input(const ParsedArguments& args, const Scenario& scenario, const std::string& command) {
  const auto file = args.value("--measured");
  if (!file) throw UsageError(fmt::format("ringsim {}: --measured TRACE is required", command));
  TraceInput input{*file, read_trace(*file, args.value("--format")), {}};
  std::optional<int> ranks;
  if (auto text = args.value("--ranks")) ranks = positive_int_option("--ranks", *text);
  else if (!input.trace.ranks && input.trace.format == "imb" && scenario.placements.size() == 1)
    ranks = scenario.placements[0].total_ranks();
  const auto select = args.value("--select") ? parse_selection("--select", *args.value("--select")) : std::vector<std::string>{};
  input.grouped = group_trace(input.trace, scenario, *file, ranks, select);
  return input;
}

}  // namespace ringsim
