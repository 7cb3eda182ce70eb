// The emulated cluster of tools/emulated-cluster.sh, owned for the lifetime of a measurement:
// created by the constructor, torn down by the destructor (also when an exception or an interrupt
// ends the measurement). Clusters abandoned by killed runs are swept before a new one is made.
#pragma once

#include "../platform/topology.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

// Above this per-NIC rate the 2-core machine, not the shaped link, limits the ring
// (docs/measure-and-validate.md, tools/bench-emulation.sh: median/bound 1.11-1.13 up to 400 Mbit/s, 1.23 at
// 800, 1.30 at 1600).
inline constexpr double kEmulationLimitBps = 400e6 / 8;

class EmulatedCluster {
 public:
  // Brings up NODES (the first n nodes of the topology) with their NICs' rates and latencies.
  explicit EmulatedCluster(const std::vector<NodeSpec>& nodes);
  ~EmulatedCluster();
  EmulatedCluster(const EmulatedCluster&) = delete;
  EmulatedCluster& operator=(const EmulatedCluster&) = delete;

  // How link latency is emulated: "shaped with netem", "none requested (native veth latency)" or
  // "native veth latency (this kernel has no netem)".
  const std::string& latency() const { return latency_; }
  // argv prefix that runs a command inside NODE's namespace as host NODE.
  std::vector<std::string> exec_prefix(const std::string& node) const;
  // argv prefix that runs a program capped at FRACTION of one core, in its own cgroup
  // (the first call mounts the cgroup cpu controller; throws when that fails).
  std::vector<std::string> cpu_cap_prefix(double fraction) const;
  // Writes an rsh agent script for Open MPI (plm_rsh_agent) into DIR and returns its path.
  std::filesystem::path write_rsh_agent(const std::filesystem::path& dir) const;

 private:
  std::filesystem::path script_;
  std::string id_;
  std::string latency_;
  mutable bool cpu_controller_ready_ = false;  // mounted on first use of cpu_cap_prefix
};

}  // namespace ringsim
