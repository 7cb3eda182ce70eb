#include "alltoall_load.h"

#include "../common/units.h"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace ringsim {

std::vector<AlltoallNicLoad> alltoall_nic_loads(const SimulationCase& spec) {
  const std::vector<int>& nodes = spec.ring.nodes;
  const int ranks = static_cast<int>(nodes.size());
  std::map<int, int> ranks_on;
  std::map<int, std::string> first_host;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    ++ranks_on[nodes[r]];
    if (r < spec.ring.hosts.size()) first_host.emplace(nodes[r], spec.ring.hosts[r]);
  }
  std::vector<AlltoallNicLoad> loads;
  for (const auto& [node, count] : ranks_on) {
    const long long flows = static_cast<long long>(count) * (ranks - count);
    std::string name = first_host[node];
    // Hosts of a compact topology are NODE-gpuK (topology_json.cpp): the node is the prefix.
    if (const auto gpu = name.rfind("-gpu"); gpu != std::string::npos) name.resize(gpu);
    loads.push_back({name, count, ranks, flows, ranks == 0 ? 0.0 : static_cast<double>(flows) / ranks});
  }
  return loads;
}

AlltoallNicLoad busiest_alltoall_nic(const SimulationCase& spec) {
  AlltoallNicLoad busiest;
  busiest.ranks = static_cast<int>(spec.ring.nodes.size());
  for (const AlltoallNicLoad& load : alltoall_nic_loads(spec))
    if (load.flows > busiest.flows) busiest = load;
  return busiest;
}

std::string describe_alltoall_load(const AlltoallNicLoad& load) {
  return fmt::format("the NIC of {}, whose {} ranks exchange {}x{} = {} of the {}x{} = {} pair flows ({:.2f} buffers each way)",
                     load.node, load.ranks_on_node, load.ranks_on_node, load.ranks - load.ranks_on_node, load.flows, load.ranks,
                     load.ranks - 1, static_cast<long long>(load.ranks) * (load.ranks - 1), load.buffers);
}

namespace {

std::vector<long long> flows_per_nic(const std::vector<AlltoallNicLoad>& loads) {
  std::vector<long long> flows;
  for (const AlltoallNicLoad& load : loads) flows.push_back(load.flows);
  return flows;
}

std::vector<std::string> node_names(const std::vector<AlltoallNicLoad>& loads) {
  std::vector<std::string> names;
  for (const AlltoallNicLoad& load : loads) names.push_back(load.node);
  return names;
}

// "2.00 buffers, 32 MiB each way at 16MiB"
std::string load_bytes(const AlltoallNicLoad& load, std::uint64_t bytes) {
  const auto moved = static_cast<std::uint64_t>(std::llround(load.buffers * static_cast<double>(bytes)));
  return fmt::format("{} each way at {}", format_bytes(moved), format_bytes(bytes));
}

}  // namespace

std::string compare_alltoall_loads(const SimulationCase& other, const std::string& other_name, const SimulationCase& base,
                                   const std::string& base_name, double ratio, std::uint64_t bytes) {
  const auto other_loads = alltoall_nic_loads(other), base_loads = alltoall_nic_loads(base);
  const AlltoallNicLoad busiest = busiest_alltoall_nic(other), base_busiest = busiest_alltoall_nic(base);
  const bool same_time = std::abs(ratio - 1) < 0.03;
  const std::string per_nic = fmt::format("Per NIC ({}), {} carries {} pair flows each way and {} {}", fmt::join(node_names(other_loads), ", "),
                                          other_name, fmt::join(flows_per_nic(other_loads), ", "), base_name,
                                          fmt::join(flows_per_nic(base_loads), ", "));
  if (busiest.flows == base_busiest.flows && busiest.ranks == base_busiest.ranks) {
    const std::string limited = busiest.node == base_busiest.node
                                    ? fmt::format("both are limited by {}, {}", describe_alltoall_load(busiest), load_bytes(busiest, bytes))
                                    : fmt::format("it is limited by {}, {} by {}, {} alike", describe_alltoall_load(busiest), base_name,
                                                  describe_alltoall_load(base_busiest), load_bytes(busiest, bytes));
    return fmt::format(": {}; {}. {}: the placements differ only on NICs that carry fewer flows than the busiest, so its load{}.",
                       same_time ? "the same" : "another time with the same busiest load", limited, per_nic,
                       same_time ? ", and the time, stay the same" : " does not explain the difference");
  }
  return fmt::format(": {} {:.2f}x the pair flows on its busiest NIC: {}, {}; {}'s busiest is {}, {}. {}.",
                     busiest.flows > base_busiest.flows ? "slower, with" : "faster, with",
                     static_cast<double>(busiest.flows) / static_cast<double>(std::max(1LL, base_busiest.flows)),
                     describe_alltoall_load(busiest), load_bytes(busiest, bytes), base_name, describe_alltoall_load(base_busiest),
                     load_bytes(base_busiest, bytes), per_nic);
}

}  // namespace ringsim
