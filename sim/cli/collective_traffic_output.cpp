#include "collective_traffic_output.h"

#include "../analysis/collective_traffic.h"
#include "../analysis/platform_routes.h"
#include "../common/atomic_file.h"
#include "../common/units.h"
#include "../model/scenario.h"
#include "../results/case_results.h"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace ringsim {
namespace {

// One case of the scenario: a placement, a collective and an algorithm, with its traffic.
struct TrafficCase {
  const PlacementSpec* placement = nullptr;
  Collective collective = Collective::all_reduce;
  std::string algorithm;
  std::optional<CollectiveTraffic> traffic;  // none: its flows are not modelled
};

std::string case_title(const TrafficCase& c) {
  return fmt::format("{} {} {}", c.placement->label(), collective_name(c.collective), c.algorithm);
}

void print_case(const TrafficCase& c) {
  if (!c.traffic) {
    fmt::print("# {}: its flows are not modelled (NCCL's channels: ringsim analyze TOPOLOGY --placement P with a model key \"nccl\")\n\n",
               case_title(c));
    return;
  }
  const CollectiveTraffic& t = *c.traffic;
  fmt::print("# {}: {} ranks, {} pair flows; bytes per link direction in one call, and in units of S = {}\n", case_title(c), t.ranks,
             t.flows, format_bytes(t.bytes));
  fmt::print("#{:>24} {:>10} {:>11} {:>6} {:>14} {:>8}\n", "link", "direction", "role", "flows", "bytes", "x S");
  const double s = static_cast<double>(t.bytes);
  for (const LinkTraffic& link : t.links)
    fmt::print(" {:>24} {:>10} {:>11} {:>6} {:>14.0f} {:>8.3f}\n", link.use.link, link.use.direction, link_class_name(link.link_class),
               link.flows, link.bytes, link.bytes / s);
  for (const LinkTraffic& link : t.busiest)
    fmt::print("# busiest {}: {} {}, {} flow{}, {:.3f} S ({})\n", link_class_name(link.link_class), link.use.link, link.use.direction,
               link.flows, link.flows == 1 ? "" : "s", link.bytes / s,
               link.contended ? fmt::format("{:.2f} ms at {:g} Gbit/s alone", link.bytes / link.bandwidth_Bps * 1e3, link.bandwidth_Bps * 8 / 1e9)
                              : "non-blocking");
  fmt::print("\n");
}

nlohmann::json link_json(const LinkTraffic& link) {
  return {{"link", link.use.link}, {"direction", link.use.direction}, {"role", link_class_name(link.link_class)},
          {"flows", link.flows},   {"bytes", link.bytes},             {"bandwidth_Bps", link.bandwidth_Bps},
          {"contended", link.contended}};
}

nlohmann::json case_json(const TrafficCase& c) {
  nlohmann::json row = {{"placement", c.placement->ranks_text()}, {"order", order_name(c.placement->order)},
                        {"collective", collective_name(c.collective)}, {"algorithm", c.algorithm}};
  if (!c.traffic) {
    row["modelled"] = false;
    return row;
  }
  row["ranks"] = c.traffic->ranks;
  row["bytes"] = c.traffic->bytes;
  row["flows"] = c.traffic->flows;
  for (const LinkTraffic& link : c.traffic->links) row["links"].push_back(link_json(link));
  for (const LinkTraffic& link : c.traffic->busiest) row["busiest"].push_back(link_json(link));
  return row;
}

}  // namespace

bool names_a_scenario(const std::filesystem::path& file) {
  if (file.extension() != ".json") return false;
  std::ifstream in(file);
  const nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
  return document.is_object() && document.contains("topology");
}

void analyze_scenario_traffic(const std::filesystem::path& scenario_file, std::optional<std::uint64_t> size,
                              const std::optional<std::string>& json_file) {
  const Scenario scenario = load_scenario(scenario_file);
  const Platform platform = load_platform(scenario.topology);
  check_placements_fit(scenario, platform.layout);
  const auto routes = platform_routes(platform, scenario.model, scenario_file.string());
  const std::uint64_t bytes = size.value_or(scenario.sizes.back());
  fmt::print("# analyze {}: traffic per link of one call of each collective at {}\n\n", scenario.name, format_bytes(bytes));
  nlohmann::json rows = nlohmann::json::array();
  for (const PlacementSpec& placement : scenario.placements) {
    const std::vector<std::string> hosts = hosts_of_ranks(placement, platform.layout);
    for (Collective collective : scenario.collectives)
      for (const std::string& algorithm : scenario.algorithms) {
        TrafficCase c{&placement, collective, algorithm, std::nullopt};
        if (const auto flows = collective_flows(collective, algorithm, static_cast<int>(hosts.size()), bytes))
          c.traffic = route_traffic(*routes, hosts, *flows, bytes);
        print_case(c);
        rows.push_back(case_json(c));
      }
  }
  if (json_file)
    write_file_atomically(*json_file, nlohmann::json{{"scenario", scenario.name}, {"bytes", bytes}, {"traffic", rows}}.dump(2) + "\n");
}

}  // namespace ringsim
