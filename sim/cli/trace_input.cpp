#include "trace_input.h"

#include "../nccl/nccl_plan.h"
#include "../platform/gpu_generation.h"
#include "../common/input_error.h"
#include "../validate/results_trace_agreement.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {
bool simulates_nccl(const Scenario& scenario) {
  return std::any_of(scenario.algorithms.begin(), scenario.algorithms.end(), [](const std::string& name) { return is_nccl_algorithm(name); });
}

TraceInput read_trace_input(const ParsedArguments& args, const Scenario& scenario, const std::string& command) {
  const auto file = args.value("--measured");
  if (!file) throw UsageError(fmt::format("ringsim {}: --measured TRACE is required", command));
  TraceInput input{*file, read_trace(*file, args.value("--format"), args.value("--collective")), {}};
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

void adopt_trace_nccl_version(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || run->library != "NCCL" || !run->library_version) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.version_given) return;
  const auto version = parse_nccl_version(*run->library_version);
  if (!version) {
    fmt::print(stderr, "ringsim: note: the trace ran NCCL {}, older than the versions ringsim models (2.4 on); "
                       "simulating {}\n", *run->library_version, nccl.version_text);
    return;
  }
  if (!nccl_has_protocol(*version, nccl.protocol))
    throw InputError(fmt::format("{}: the trace ran NCCL {}, which has no LL128, but the scenario forces it "
                                 "(set the model's nccl.protocol to LL or Simple)", input.file, *run->library_version));
  nccl.version_text = version->text();
  nccl.version = *version;
  scenario.model.nccl = nccl;
  const auto simulated = std::find_if(scenario.algorithms.begin(), scenario.algorithms.end(),
                                      [](const std::string& name) { return is_nccl_algorithm(name); });
  fmt::print("# NCCL version from the trace's header: {} ({} runs {}'s channels and protocol choice; "
             "set the model's nccl.version to override)\n", *run->library_version, *simulated, nccl.version_text);
}

void adopt_trace_gpu_generation(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || run->ranks.empty()) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.compute_capability_given) return;
  std::set<std::string> names;
  for (const MeasuredRank& rank : run->ranks)
    if (!rank.gpu.empty()) names.insert(rank.gpu);
  if (names.empty()) return;
  std::set<int> generations;
  for (const std::string& name : names) generations.insert(gpu_compute_capability(name).value_or(0));
  if (generations.size() != 1 || *generations.begin() == 0) {
    fmt::print(stderr, "ringsim: note: the trace's GPUs ({}) are not of one generation ringsim knows; NCCL's model runs as "
                       "compute capability {} (set the model's nccl.compute_capability to override)\n",
               fmt::join(names, ", "), nccl.compute_capability);
    return;
  }
  nccl.compute_capability = *generations.begin();
  nccl.compute_capability_given = true;  // the run's own GPUs: above a topology's gpu_model
  scenario.model.nccl = nccl;
  fmt::print("# GPUs from the trace's header: {} (NCCL's model as compute capability {}; set the model's "
             "nccl.compute_capability to override)\n", *names.begin(), nccl.compute_capability);
}

void adopt_trace_net_latency(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || !run->nccl || !run->nccl->net_latency_us) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.net_latency_given) return;
  nccl.net_latency_s = *run->nccl->net_latency_us * 1e-6;
  nccl.net_latency_given = true;
  scenario.model.nccl = nccl;
  fmt::print("# network plugin's latency from the trace (line {}): {} us, which NCCL's model adds to each network hop from "
             "2.12 (set the model's nccl.net_latency to override)\n", run->nccl->net_latency_line, *run->nccl->net_latency_us);
}

}  // namespace ringsim
