// `ringsim analyze`: embed the ring of a placement in the topology graph, count the ring edges on
// every link direction, name the bottleneck, and predict the ring time in closed form.
#include "../analysis/placement_analysis.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../results/case_results.h"
#include "../results/results_output.h"
#include "collective_traffic_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace ringsim {
namespace {

constexpr const char* kAnalyzeUsage = R"(usage: ringsim analyze TOPOLOGY.json|PLATFORM.xml --placement P [--order block|cyclic|optimized]
                       [--sizes 16MiB,64MiB] [--model MODEL.json] [--json FILE]
       ringsim analyze SCENARIO.json [--sizes S] [--json FILE]

Embeds the ring of placement P (e.g. 4-3-1; "RxK" stands for K nodes of R ranks, e.g. 1x65536) in
the topology: the route of every ring edge (rank r to r+1), how many ring edges cross each link in each
direction, the bottleneck (most ring edges per unit of bandwidth), and the ring time in closed form
for each size:
  2(N-1) * max over ring edges of (route latency + S/N * ring edges on its busiest link / bandwidth)
  + (N-1) reductions of S/N/4 flops
which is what the simulation gives on the ideal model (network CM02, no cross traffic, factors none).
A model file's process_stack, nic_sharing and background (docs/scenario-format.md) reshape the links
as in ringsim run; a process stack appears as a link of its own, "<host>-stack". A hand-written SimGrid
XML platform is analyzed on the routes SimGrid itself computes (nodes and slots as ringsim run sees them).

With a model key "nccl" (docs/scenario-format.md) on a compact topology, a second prediction follows:
NCCL's own time model of its ring (nccl_ring) for that version, with the protocol NCCL would choose.

--order optimized searches the rank order that minimises the predicted time at the largest size
(local search from the cyclic order and from the hosts grouped by node) and reports its gain over
block and cyclic order.

On a scenario: for each of its placements, collectives and algorithms, the bytes one call moves over
each link direction (its point-to-point flows routed under the scenario's model), with the busiest link
of each role (NIC, intra-node, switch), at the largest of --sizes, else the scenario's largest size.
)";

std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    sizes.push_back(bytes_option("--sizes", text.substr(from, comma - from)));
    from = comma + 1;
  }
  return sizes;
}

std::string gbits(double bandwidth_Bps) { return fmt::format("{:g} Gbit/s", bandwidth_Bps * 8 / 1e9); }

// --placement and --order; optimized starts from the cyclic order (the search also tries block).
PlacementSpec placement_option(const ParsedArguments& args, bool optimized) {
  const auto placement_text = args.value("--placement");
  if (!placement_text) throw UsageError("ringsim analyze: --placement P (e.g. 4-3-1) is required");
  PlacementSpec placement;
  auto counts = parse_rank_counts(*placement_text);
  if (!counts) throw UsageError(fmt::format("ringsim analyze: \"{}\" is not a placement such as 4-3-1", *placement_text));
  placement.ranks_per_node = *counts;
  const std::string order_text = args.value("--order").value_or("block");
  if (optimized) {
    placement.order = RankOrder::cyclic;
  } else {
    auto parsed = parse_rank_order(order_text);
    if (!parsed) throw UsageError(fmt::format("ringsim analyze: --order takes block, cyclic or optimized, not \"{}\"", order_text));
    placement.order = *parsed;
  }
  return placement;
}

// The search's gain, the ring's nodes, the link table, the bottleneck and the predicted times.
void print_analysis(const PlacementAnalysis& analysis, const PlacementSpec& placement, const std::string& platform_name) {
  const auto& hosts = analysis.hosts;
  std::string order_label = placement.label();
  if (const auto& gain = analysis.optimized) {
    order_label = placement.ranks_text() + " optimized";
    fmt::print("# optimized rank order at {} bytes: {:.2f} us, {:.2f}x faster than cyclic ({:.2f} us), {:+.2f}% against block ({:.2f} us)\n",
               gain->bytes, gain->time_s * 1e6, gain->cyclic_time_s / gain->time_s, gain->cyclic_time_s * 1e6,
               (gain->time_s / gain->block_time_s - 1) * 100, gain->block_time_s * 1e6);
    fmt::print("# rank -> host: {}\n", fmt::join(hosts, " "));
  }
  fmt::print("# analyze {}: placement {}, {} ranks; the ring visits nodes {}\n", platform_name, order_label,
             hosts.size(), fmt::join(analysis.nodes_visited, ", "));
  fmt::print("#{:>24} {:>10} {:>11} {:>14}\n", "link", "direction", "ring edges", "bandwidth");
  const RingEmbedding& ring = analysis.ring;
  for (const auto& [use, edges] : ring.ring_edges)
    fmt::print(" {:>24} {:>10} {:>11} {:>14}{}\n", use.link, use.direction, edges, gbits(ring.bandwidth.at(use)),
               use == analysis.bottleneck.use ? "  <- bottleneck" : ring.links.at(use.link).contended ? "" : "  (non-blocking)");
  fmt::print("# bottleneck: {}: each step moves {} x S/{} through it\n",
             describe_bottleneck(ring, analysis.bottleneck, hosts), analysis.bottleneck.ring_edges, hosts.size());
  fmt::print("#{:>11} {:>16} {:>12}\n", "size", "predicted(us)", "busbw(GB/s)");
  for (const PredictedTime& predicted : analysis.predicted)
    fmt::print(" {:>11} {:>16.2f} {:>12.3f}\n", predicted.bytes, predicted.time_s * 1e6,
               busbw_GBps(predicted.bytes, predicted.time_s, static_cast<int>(hosts.size())));
  if (const auto& nccl = analysis.nccl) {
    // 2.4 chose its protocol by thresholds and had no time model; its times are 2.5's (algorithm_costs.h).
    const bool modelled = nccl->release->time_model;
    fmt::print("# NCCL {}'s {} of nccl_ring: {} ranks on {} nodes, {} channels ({} found by its search at {}), "
               "node-contiguous rings whatever the rank order\n",
               nccl->version.text(),
               modelled ? "own model" : "protocol choice (it had no time model: times by 2.5's)", nccl->ranks, nccl->nodes,
               nccl->channels, nccl->search_channels, gbits(nccl->channel_bandwidth_Bps));
    if (const auto& rails = analysis.nccl_rails) {
      // Per node, the NICs each channel enters and leaves through (nccl_rails.h).
      std::map<int, std::vector<std::string>> per_node;
      for (const NcclChannelNics& c : rails->crossings)
        per_node[c.node].push_back(fmt::format("ch{} {}>{}", c.channel, c.nic_in, c.nic_out));
      fmt::print("# NCCL's channels over the NICs (channel: NIC in > NIC out), bus bandwidth {} GB/s, limited by {}\n",
                 fmt::format("{:.1f}", rails->bus_bandwidth_Bps / 1e9), rails->bottleneck);
      for (const auto& [node, channels] : per_node) fmt::print("#   node {}: {}\n", node, fmt::join(channels, ", "));
    }
    fmt::print("#{:>11} {:>9} {:>16} {:>12} {:>12}\n", "size", "protocol", "nccl model(us)", "latency(us)", "busbw(GB/s)");
    for (const NcclPredictedTime& p : analysis.nccl_predicted)
      fmt::print(" {:>11} {:>9} {:>16.2f} {:>12.2f} {:>12.3f}\n", p.bytes, protocol_name(p.prediction.protocol),
                 p.prediction.time_s * 1e6, p.prediction.latency_s * 1e6,
                 busbw_GBps(p.bytes, p.prediction.time_s, static_cast<int>(hosts.size())));
  }
}

// Built only for --json: 65,536 ranks give 131,073 link rows.
nlohmann::json analysis_json(const PlacementAnalysis& analysis, const PlacementSpec& placement) {
  nlohmann::json links = nlohmann::json::array();
  for (const auto& [use, edges] : analysis.ring.ring_edges)
    links.push_back({{"link", use.link}, {"direction", use.direction}, {"ring_edges", edges}, {"bandwidth_Bps", analysis.ring.bandwidth.at(use)}});
  nlohmann::json predicted = nlohmann::json::array();
  for (const PredictedTime& size : analysis.predicted) predicted.push_back({{"bytes", size.bytes}, {"time_s", size.time_s}});
  const Bottleneck& bottleneck = analysis.bottleneck;
  nlohmann::json document = {
      {"placement", placement.ranks_text()}, {"order", analysis.optimized ? "optimized" : order_name(placement.order)},
      {"ranks", analysis.hosts.size()}, {"hosts", analysis.hosts}, {"links", links},
      {"bottleneck", {{"link", bottleneck.use.link}, {"direction", bottleneck.use.direction}, {"ring_edges", bottleneck.ring_edges}}},
      {"predicted", predicted}};
  for (const NcclPredictedTime& p : analysis.nccl_predicted)
    document["nccl_predicted"].push_back({{"bytes", p.bytes}, {"protocol", protocol_name(p.prediction.protocol)},
                                          {"time_s", p.prediction.time_s}, {"latency_s", p.prediction.latency_s},
                                          {"algbw_Bps", p.prediction.algbw_Bps}});
  if (const auto& rails = analysis.nccl_rails) {
    nlohmann::json channels = nlohmann::json::array();
    for (const NcclChannelNics& c : rails->crossings)
      channels.push_back({{"channel", c.channel}, {"node", c.node}, {"nic_in", c.nic_in}, {"nic_out", c.nic_out}});
    document["nccl_rails"] = {{"search_channels", rails->search_channels}, {"bus_bandwidth_Bps", rails->bus_bandwidth_Bps},
                              {"bottleneck", rails->bottleneck}, {"channels", channels}};
  }
  if (const auto& gain = analysis.optimized)
    document["optimized"] = {{"hosts", analysis.hosts}, {"time_s", gain->time_s}, {"cyclic_time_s", gain->cyclic_time_s},
                             {"block_time_s", gain->block_time_s}, {"bytes", gain->bytes}};
  return document;
}

}  // namespace

int analyze_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "analyze", {"--placement", "--order", "--sizes", "--model", "--json"}, {});
  if (args.has("--help")) {
    std::fputs(kAnalyzeUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim analyze: expected exactly one TOPOLOGY.json");
  if (auto json = args.value("--json")) check_output_file("--json", *json);
  if (names_a_scenario(args.positional[0])) {
    for (const char* option : {"--placement", "--order", "--model"})
      if (args.value(option))
        throw UsageError(fmt::format("ringsim analyze: {} does not apply to a scenario (its placements and model are analyzed)", option));
    std::optional<std::uint64_t> size;
    if (auto sizes = args.value("--sizes")) size = std::ranges::max(parse_sizes(*sizes));
    analyze_scenario_traffic(args.positional[0], size, args.value("--json"));
    return 0;
  }
  PlacementAnalysisRequest request;
  request.optimized = args.value("--order").value_or("block") == "optimized";
  request.placement = placement_option(args, request.optimized);
  request.sizes = args.value("--sizes") ? parse_sizes(*args.value("--sizes")) : std::vector<std::uint64_t>{64u << 20};

  request.platform_file = args.positional[0];
  request.model_where = args.value("--model").value_or(request.platform_file);
  const ModelSettings model = args.value("--model") ? load_model_file(*args.value("--model"), ModelSettings{}) : ModelSettings{};
  const Platform platform = load_platform(request.platform_file);
  const std::string platform_name =
      platform.topology ? platform.topology->name : std::filesystem::path(request.platform_file).stem().string();
  const PlacementAnalysis analysis = analyze_placement(platform, model, request);
  print_analysis(analysis, request.placement, platform_name);
  if (auto json = args.value("--json")) write_file_atomically(*json, analysis_json(analysis, request.placement).dump(2) + "\n");
  return 0;
}

}  // namespace ringsim
