// The compact topology model (README "Topology format"): racks of nodes, each node with GPUs (one
// rank slot each), one NIC into the rack switch, and one intra-node link shared by its GPUs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

struct LinkSpec {
  double bandwidth_Bps = 0;  // bytes per second
  double latency_s = 0;
};

struct NodeSpec {
  std::string name;  // "node0"; hosts are "<name>-gpu<i>"
  int gpus = 1;
  LinkSpec nic;    // split duplex: each direction has the full bandwidth
  LinkSpec intra;  // shared by every GPU-to-GPU transfer inside the node
  double gpu_speed_flops = 0;
};

struct RackSpec {
  std::string name;
  // With a bandwidth given, the switch is a backplane of that capacity shared by all traffic
  // between the rack's nodes. Without, it is non-blocking: a FATPIPE at the fastest NIC's rate.
  LinkSpec switch_link;
  bool switch_nonblocking = false;
  std::vector<NodeSpec> nodes;
};

struct Topology {
  std::string name;
  std::string description;
  std::vector<RackSpec> racks;
};

// Reads and validates a compact topology file; throws InputError naming the file and JSON path.
Topology load_topology(const std::filesystem::path& file);

// The same topology with every link's bandwidth multiplied by FACTOR (model key link_bandwidth_scale).
Topology scaled_bandwidths(Topology topology, double factor);

std::string host_name(const NodeSpec& node, int gpu);
std::string nic_link_name(const NodeSpec& node);
std::string intra_link_name(const NodeSpec& node);
std::string switch_link_name(const RackSpec& rack);

}  // namespace ringsim
