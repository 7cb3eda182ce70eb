// `ringsim analyze`: embed the ring of a placement in the topology graph, count the ring edges on
// every link direction, name the bottleneck, and predict the ring time in closed form.
#include "../analysis/platform_routes.h"
#include "../analysis/ring_analysis.h"
#include "../analysis/ring_order.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../model/model_settings.h"
#include "../model/placement.h"
#include "../results/case_results.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <map>
#include <memory>
#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kAnalyzeUsage = R"(usage: ringsim analyze TOPOLOGY.json|PLATFORM.xml --placement P [--order block|cyclic|optimized]
                       [--sizes 16MiB,64MiB] [--model MODEL.json] [--json FILE]

Embeds the ring of placement P (e.g. 4-3-1; "RxK" stands for K nodes of R ranks, e.g. 1x65536) in
the topology: the route of every ring edge (rank r to r+1), how many ring edges cross each link in each
direction, the bottleneck (most ring edges per unit of bandwidth), and the ring time in closed form
for each size:
  2(N-1) * max over ring edges of (route latency + S/N * ring edges on its busiest link / bandwidth)
  + (N-1) reductions of S/N/4 flops
which is what the simulation gives on the ideal model (network CM02, no cross traffic, factors none).
A model file's process_stack, nic_sharing and background (README, "Model settings") reshape the links
as in ringsim run; a process stack appears as a link of its own, "<host>-stack". A hand-written SimGrid
XML platform is analyzed on the routes SimGrid itself computes (nodes and slots as ringsim run sees them).

--order optimized searches the rank order that minimises the predicted time at the largest size
(local search from the cyclic order and from the hosts grouped by node) and reports its gain over
block and cyclic order.
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
  const std::string order_text = args.value("--order").value_or("block");
  const bool optimized = order_text == "optimized";
  if (optimized) {
    placement.order = RankOrder::cyclic;  // the search starts from the cyclic order (and from block)
  } else {
    auto parsed = parse_rank_order(order_text);
    if (!parsed) throw UsageError(fmt::format("ringsim analyze: --order takes block, cyclic or optimized, not \"{}\"", order_text));
    placement.order = *parsed;
  }
  const auto sizes = args.value("--sizes") ? parse_sizes(*args.value("--sizes")) : std::vector<std::uint64_t>{64u << 20};
  if (auto json = args.value("--json")) check_output_file("--json", *json);

  const std::string topology_file = args.positional[0];
  const ModelSettings model = args.value("--model") ? load_model_file(*args.value("--model"), ModelSettings{}) : ModelSettings{};
  const Platform platform = load_platform(topology_file);
  const std::string platform_name =
      platform.topology ? platform.topology->name : std::filesystem::path(topology_file).stem().string();
  const auto routes_of_platform = platform_routes(platform, model, args.value("--model").value_or(topology_file));
  TopologyRoutes& routes = *routes_of_platform;
  const ClusterLayout& layout = platform.layout;
  if (auto misfit = placement_misfit(placement, layout)) throw InputError(fmt::format("{}: {}", topology_file, *misfit));
  std::vector<std::string> hosts = hosts_of_ranks(placement, layout);
  const double gpu_speed = routes.slowest_speed_flops(hosts);
  const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());

  nlohmann::json order_json;
  std::string order_label = placement.label();
  if (optimized) {
    PlacementSpec block = placement;
    block.order = RankOrder::block;
    const double cyclic_time = predicted_ring_time(embed_ring(routes, hosts), largest, gpu_speed);
    const double block_time = predicted_ring_time(embed_ring(routes, hosts_of_ranks(block, layout)), largest, gpu_speed);
    const OptimizedRingOrder best = optimize_ring_order(layout, routes, hosts, largest, gpu_speed);
    hosts = best.hosts;
    order_label = placement.ranks_text() + " optimized";
    fmt::print("# optimized rank order at {} bytes: {:.2f} us, {:.2f}x faster than cyclic ({:.2f} us), {:+.2f}% against block ({:.2f} us)\n",
               largest, best.time_s * 1e6, cyclic_time / best.time_s, cyclic_time * 1e6, (best.time_s / block_time - 1) * 100,
               block_time * 1e6);
    fmt::print("# rank -> host: {}\n", fmt::join(hosts, " "));
    order_json = {{"hosts", hosts}, {"time_s", best.time_s}, {"cyclic_time_s", cyclic_time}, {"block_time_s", block_time},
                  {"bytes", largest}};
  }

  const RingEmbedding ring = embed_ring(routes, hosts);
  const Bottleneck bottleneck = find_bottleneck(ring);
  // The nodes in ring order, runs of one node written once: "node0 x4, node1 x3, node2".
  std::map<std::string, std::string> node_of_host;
  for (const NodeSlots& node : layout.nodes)
    for (const std::string& host : node.hosts) node_of_host[host] = node.name;
  std::vector<std::pair<std::string, int>> runs;
  for (const std::string& host : hosts) {
    const std::string& node = node_of_host.at(host);
    if (runs.empty() || runs.back().first != node) runs.emplace_back(node, 0);
    ++runs.back().second;
  }
  std::vector<std::string> nodes;
  for (const auto& [node, count] : runs) nodes.push_back(count == 1 ? node : fmt::format("{} x{}", node, count));
  fmt::print("# analyze {}: placement {}, {} ranks; the ring visits nodes {}\n", platform_name, order_label,
             hosts.size(), fmt::join(nodes, ", "));
  fmt::print("#{:>24} {:>10} {:>11} {:>14}\n", "link", "direction", "ring edges", "bandwidth");
  const bool json_wanted = args.value("--json").has_value();  // 65,536 ranks: 131,073 link rows
  nlohmann::json links = nlohmann::json::array();
  for (const auto& [use, edges] : ring.ring_edges) {
    const LinkProperties& link = ring.links.at(use.link);
    const double bandwidth = ring.bandwidth.at(use);
    const bool is_bottleneck = use == bottleneck.use;
    fmt::print(" {:>24} {:>10} {:>11} {:>14}{}\n", use.link, use.direction, edges, gbits(bandwidth),
               is_bottleneck ? "  <- bottleneck" : link.contended ? "" : "  (non-blocking)");
    if (json_wanted) links.push_back({{"link", use.link}, {"direction", use.direction}, {"ring_edges", edges}, {"bandwidth_Bps", bandwidth}});
  }
  fmt::print("# bottleneck: {}: each step moves {} x S/{} through it\n", describe_bottleneck(ring, bottleneck, hosts),
             bottleneck.ring_edges, hosts.size());
  fmt::print("#{:>11} {:>16} {:>12}\n", "size", "predicted(us)", "busbw(GB/s)");
  nlohmann::json predicted = nlohmann::json::array();
  for (auto bytes : sizes) {
    const double time = predicted_ring_time(ring, bytes, gpu_speed);
    fmt::print(" {:>11} {:>16.2f} {:>12.3f}\n", bytes, time * 1e6, busbw_GBps(bytes, time, static_cast<int>(hosts.size())));
    predicted.push_back({{"bytes", bytes}, {"time_s", time}});
  }
  if (auto json = args.value("--json")) {
    nlohmann::json document = {
        {"placement", placement.ranks_text()}, {"order", optimized ? "optimized" : order_name(placement.order)},
        {"ranks", hosts.size()}, {"hosts", hosts}, {"links", links},
        {"bottleneck", {{"link", bottleneck.use.link}, {"direction", bottleneck.use.direction}, {"ring_edges", bottleneck.ring_edges}}},
        {"predicted", predicted}};
    if (optimized) document["optimized"] = order_json;
    write_file_atomically(*json, document.dump(2) + "\n");
  }
  return 0;
}

}  // namespace ringsim
