// `ringsim analyze`: embed the ring of a placement in the topology graph, count the ring edges on
// every link direction, name the bottleneck, and predict the ring time in closed form.
#include "../../topologies/ring_analysis.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../launcher/case_results.h"
#include "../launcher/model_settings.h"
#include "../launcher/placement.h"
#include "command_line.h"
#include "commands.h"
#include "results_output.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kAnalyzeUsage = R"(usage: ringsim analyze TOPOLOGY.json --placement P [--order block|cyclic] [--sizes 16MiB,64MiB]
                       [--model MODEL.json] [--json FILE]

Embeds the ring of placement P (e.g. 4-3-1) in the topology: the route of every ring edge (rank r to
r+1), how many ring edges cross each link in each direction, the bottleneck (most ring edges per unit
of bandwidth), and the ring time in closed form for each size:
  2(N-1) * max over ring edges of (route latency + S/N * ring edges on its busiest link / bandwidth)
  + (N-1) reductions of S/N/4 flops
which is what the simulation gives on the ideal model (network CM02, no cross traffic, factors none).
A model file's process_stack (README, "Model settings") adds each rank's stack as a link.
Compact topologies with one rack.
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

}  // namespace

int analyze_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "analyze", {"--placement", "--order", "--sizes", "--model", "--json"}, {});
  if (args.has("--help")) {
    std::fputs(kAnalyzeUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim analyze: expected exactly one TOPOLOGY.json");
  const auto placement_text = args.value("--placement");
  if (!placement_text) throw UsageError("ringsim analyze: --placement P (e.g. 4-3-1) is required");
  PlacementSpec placement;
  auto counts = parse_rank_counts(*placement_text);
  if (!counts) throw UsageError(fmt::format("ringsim analyze: \"{}\" is not a placement such as 4-3-1", *placement_text));
  placement.ranks_per_node = *counts;
  if (auto order = args.value("--order")) {
    auto parsed = parse_rank_order(*order);
    if (!parsed) throw UsageError(fmt::format("ringsim analyze: --order takes block or cyclic, not \"{}\"", *order));
    placement.order = *parsed;
  }
  const auto sizes = args.value("--sizes") ? parse_sizes(*args.value("--sizes")) : std::vector<std::uint64_t>{64u << 20};
  if (auto json = args.value("--json")) check_output_file("--json", *json);

  const std::string topology_file = args.positional[0];
  const Topology topology = load_topology(topology_file);
  const ModelSettings model = args.value("--model") ? load_model_file(*args.value("--model"), ModelSettings{}) : ModelSettings{};
  const ClusterLayout layout = layout_of(topology);
  if (auto misfit = placement_misfit(placement, layout)) throw InputError(fmt::format("{}: {}", topology_file, *misfit));
  const auto hosts = hosts_of_ranks(placement, layout);
  const RingEmbedding ring = embed_ring(scaled_bandwidths(topology, model.link_bandwidth_scale), model.process_stack, hosts);
  const Bottleneck bottleneck = find_bottleneck(ring);
  const double gpu_speed = topology.racks.front().nodes.front().gpu_speed_flops;

  // Which rank a per-process stack belongs to, to name it.
  auto owner = [&](const std::string& link) -> std::string {
    for (std::size_t r = 0; r < hosts.size(); ++r)
      if (link == hosts[r] + "-stack") return fmt::format(" — the stack of rank {} ({})", r, hosts[r]);
    return "";
  };
  std::vector<std::string> nodes;
  for (int node : node_of_ranks(placement)) nodes.push_back(std::to_string(node));
  fmt::print("# analyze {}: placement {}, {} ranks; the ring visits nodes {}\n", topology.name, placement.label(),
             hosts.size(), fmt::join(nodes, ","));
  fmt::print("#{:>24} {:>10} {:>11} {:>14}\n", "link", "direction", "ring edges", "bandwidth");
  nlohmann::json links = nlohmann::json::array();
  for (const auto& [use, edges] : ring.ring_edges) {
    const LinkProperties& link = ring.links.at(use.link);
    const bool is_bottleneck = use == bottleneck.use;
    fmt::print(" {:>24} {:>10} {:>11} {:>14}{}\n", use.link, use.direction, edges, gbits(link.bandwidth_Bps),
               is_bottleneck ? "  <- bottleneck" : link.contended ? "" : "  (non-blocking)");
    links.push_back({{"link", use.link}, {"direction", use.direction}, {"ring_edges", edges}, {"bandwidth_Bps", link.bandwidth_Bps}});
  }
  fmt::print("# bottleneck: {} {} carries {} ring edge{} at {}{}: each step moves {} x S/{} through it\n",
             bottleneck.use.link, bottleneck.use.direction, bottleneck.ring_edges, bottleneck.ring_edges == 1 ? "" : "s",
             gbits(bottleneck.bandwidth_Bps), owner(bottleneck.use.link), bottleneck.ring_edges, hosts.size());
  fmt::print("#{:>11} {:>16} {:>12}\n", "size", "predicted(us)", "busbw(GB/s)");
  nlohmann::json predicted = nlohmann::json::array();
  for (auto bytes : sizes) {
    const double time = predicted_ring_time(ring, bytes, gpu_speed);
    fmt::print(" {:>11} {:>16.2f} {:>12.3f}\n", bytes, time * 1e6, busbw_GBps(bytes, time, static_cast<int>(hosts.size())));
    predicted.push_back({{"bytes", bytes}, {"time_s", time}});
  }
  if (auto json = args.value("--json")) {
    const nlohmann::json document = {
        {"placement", placement.ranks_text()}, {"order", order_name(placement.order)}, {"ranks", hosts.size()},
        {"links", links},
        {"bottleneck", {{"link", bottleneck.use.link}, {"direction", bottleneck.use.direction}, {"ring_edges", bottleneck.ring_edges}}},
        {"predicted", predicted}};
    write_file_atomically(*json, document.dump(2) + "\n");
  }
  return 0;
}

}  // namespace ringsim
