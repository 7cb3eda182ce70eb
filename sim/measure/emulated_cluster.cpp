#include "emulated_cluster.h"

#include "../cases/process_pool.h"
#include "../cases/program_paths.h"
#include "../common/atomic_file.h"

#include <cmath>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ringsim {

EmulatedCluster::EmulatedCluster(const std::vector<NodeSpec>& nodes)
    : script_(tools_directory() / "emulated-cluster.sh"), id_(std::to_string(::getpid())) {
  capture_output({script_.string(), "sweep"});
  std::vector<std::string> argv{script_.string(), "up", id_};
  for (const NodeSpec& node : nodes)
    argv.push_back(fmt::format("{}:{}:{}", node.name, std::llround(node.nic.bandwidth_Bps * 8),
                               std::llround(node.nic.latency_s * 1e6)));
  // The script records its owner so that `sweep` can remove the cluster if we die without cleaning.
  ::setenv("RINGSIM_EMULATED_OWNER", id_.c_str(), 1);
  const CapturedOutput up = capture_output(argv);
  if (up.exit_status != 0) {
    capture_output({script_.string(), "down", id_});
    throw std::runtime_error(fmt::format("could not create the emulated cluster: {}", up.output));
  }
  if (up.output.find("latency: shaped") != std::string::npos) latency_ = "shaped with netem";
  else if (up.output.find("latency: none") != std::string::npos) latency_ = "none requested (native veth latency)";
  else latency_ = "native veth latency (this kernel has no netem)";
}

EmulatedCluster::~EmulatedCluster() {
  try {
    const CapturedOutput down = capture_output({script_.string(), "down", id_});
    if (down.exit_status != 0)
      fmt::print(stderr, "ringsim: tearing down the emulated cluster failed ({}): {}\n", down.exit_status, down.output);
  } catch (...) {
    // Nothing more to do from a destructor: `sweep` removes the cluster on the next run.
  }
}

std::vector<std::string> EmulatedCluster::exec_prefix(const std::string& node) const {
  return {script_.string(), "exec", id_, node};
}

std::vector<std::string> EmulatedCluster::cpu_cap_prefix(double fraction) const {
  if (!cpu_controller_ready_) {
    const CapturedOutput ready = capture_output({script_.string(), "cpu-controller", id_});
    if (ready.exit_status != 0) throw std::runtime_error(fmt::format("--rank-cpu: {}", ready.output));
    cpu_controller_ready_ = true;
  }
  return {script_.string(), "rank-cpu", id_, fmt::format("{}", fraction)};
}

std::filesystem::path EmulatedCluster::write_rsh_agent(const std::filesystem::path& dir) const {
  const auto agent = dir / "rsh-agent";
  write_file_atomically(agent, fmt::format("#!/bin/sh\n# Open MPI's rsh agent: enter the node's namespace instead of ssh.\n"
                                           "exec '{}' rsh {} \"$@\"\n",
                                           script_.string(), id_));
  ::chmod(agent.c_str(), 0755);
  return agent;
}

}  // namespace ringsim
