#include "alltoall_load.h"

#include <fmt/format.h>
#include <map>

namespace ringsim {

AlltoallNicLoad busiest_alltoall_nic(const SimulationCase& spec) {
  const std::vector<int>& nodes = spec.ring.nodes;
  std::map<int, int> ranks_on;
  std::map<int, std::string> first_host;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    ++ranks_on[nodes[r]];
    if (r < spec.ring.hosts.size()) first_host.emplace(nodes[r], spec.ring.hosts[r]);
  }
  AlltoallNicLoad busiest;
  busiest.ranks = static_cast<int>(nodes.size());
  for (const auto& [node, count] : ranks_on) {
    const long long flows = static_cast<long long>(count) * (busiest.ranks - count);
    if (flows <= busiest.flows) continue;
    std::string name = first_host[node];
    // Hosts of a compact topology are NODE-gpuK (topology_json.cpp): the node is the prefix.
    if (const auto gpu = name.rfind("-gpu"); gpu != std::string::npos) name.resize(gpu);
    busiest = {name, count, busiest.ranks, flows, static_cast<double>(flows) / busiest.ranks};
  }
  return busiest;
}

std::string describe_alltoall_load(const AlltoallNicLoad& load) {
  return fmt::format("the NIC of {}, whose {} ranks exchange {}x{} = {} of the {}x{} = {} pair flows ({:.2f} buffers each way)",
                     load.node, load.ranks_on_node, load.ranks_on_node, load.ranks - load.ranks_on_node, load.flows, load.ranks,
                     load.ranks - 1, static_cast<long long>(load.ranks) * (load.ranks - 1), load.buffers);
}

}  // namespace ringsim
