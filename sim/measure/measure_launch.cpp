#include "measure_launch.h"

#include "../cases/program_paths.h"
#include "../common/input_error.h"
#include "hostfile.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <unistd.h>

namespace ringsim {
namespace {

std::filesystem::path require_program(const std::string& program, const std::string& how_to_get_it) {
  auto found = find_on_path(program);
  if (!found) throw InputError(fmt::format("{} not found on PATH: {}", program, how_to_get_it));
  return *found;
}

std::filesystem::path find_rank_program() {
  const char* override_path = std::getenv("RINGSIM_RANK_MPI");
  std::filesystem::path program = override_path != nullptr ? override_path : program_directory() / "ringsim-rank-mpi";
  if (!std::filesystem::is_regular_file(program))
    throw InputError(fmt::format("{} not found: install libopenmpi-dev and rebuild (tools/build.sh), or set RINGSIM_RANK_MPI",
                                 program.string()));
  return program;
}

std::size_t nodes_used(const Scenario& scenario) {
  std::size_t nodes = 0;
  for (const auto& placement : scenario.placements) nodes = std::max(nodes, placement.ranks_per_node.size());
  return nodes;
}

// The topology nodes the emulation needs, checked against what this machine can emulate.
std::vector<NodeSpec> emulated_nodes(const Scenario& scenario, const Platform& platform, bool beyond_limit) {
  if (!platform.topology)
    throw InputError(fmt::format("{}: --emulated needs a compact topology (its NIC rates are what tc shapes); "
                                 "SimGrid XML works with --hostfile",
                                 scenario.topology.string()));
  std::vector<NodeSpec> all;
  for (const auto& rack : platform.topology->racks) all.insert(all.end(), rack.nodes.begin(), rack.nodes.end());
  all.resize(nodes_used(scenario));
  for (const NodeSpec& node : all)
    if (node.nic.bandwidth_Bps > kEmulationLimitBps && !beyond_limit)
      throw InputError(fmt::format(
          "{}: node {} has a {:g} Mbit/s NIC, above the {:g} Mbit/s this machine emulates faithfully "
          "(docs/measure-and-validate.md); describe slower NICs or pass --beyond-emulation-limit",
          scenario.topology.string(), node.name, node.nic.bandwidth_Bps * 8 / 1e6, kEmulationLimitBps * 8 / 1e6));
  return all;
}

// Topology node i runs on the i-th host of the hostfile.
std::vector<std::string> hostfile_node_hosts(const Scenario& scenario, const std::string& hostfile) {
  const auto hosts = read_hostfile(hostfile);
  if (hosts.size() < nodes_used(scenario))
    throw InputError(fmt::format("{}: {} hosts, but the placements use {} nodes of the topology", hostfile,
                                 hosts.size(), nodes_used(scenario)));
  return {hosts.begin(), hosts.begin() + static_cast<long>(nodes_used(scenario))};
}

}  // namespace

CheckedLaunch check_measure_launch(const Scenario& scenario, const Platform& platform, const MeasureOptions& options) {
  CheckedLaunch checked;
  MpiLaunch& launch = checked.launch;
  if (!options.emulated) launch.node_hosts = hostfile_node_hosts(scenario, *options.hostfile);
  launch.mpirun = require_program("mpirun", "apt-get install openmpi-bin libopenmpi-dev (or run tools/bootstrap.sh)");
  launch.rank_program = find_rank_program();
  launch.extra_mpirun_args = options.mpirun_args;
  if (options.emulated) {
    if (::geteuid() != 0)
      throw InputError("ringsim measure --emulated: needs root (it creates network namespaces and tc shaping); "
                       "run it as root or with sudo");
    require_program("ip", "apt-get install iproute2");
    require_program("tc", "apt-get install iproute2");
    require_program("unshare", "apt-get install util-linux");
    checked.emulated_nodes = emulated_nodes(scenario, platform, options.beyond_emulation_limit);
    for (const NodeSpec& node : checked.emulated_nodes) launch.node_hosts.push_back(node.name);
  }
  return checked;
}

std::string shell_command_text(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) {
    const bool plain = !arg.empty() && arg.find_first_of(" \t'\"$\\;&|<>()*?") == std::string::npos;
    text += (text.empty() ? "" : " ") + (plain ? arg : "'" + arg + "'");
  }
  return text;
}

}  // namespace ringsim
