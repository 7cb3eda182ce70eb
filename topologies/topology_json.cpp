// Compact topology JSON -> Topology. Defaults live here and in README's "Topology format" table.
#include "topology.h"

#include "../sim/common/input_error.h"
#include "../sim/common/json_input.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {
namespace {

constexpr double kDefaultSwitchLatency = 1e-6;      // 1us; bandwidth defaults to non-blocking (below)
constexpr LinkSpec kDefaultNic{10e9 / 8, 1e-6};      // 10Gbps, 1us
constexpr LinkSpec kDefaultIntra{12e9, 0.5e-6};      // 12GBps, 0.5us (PCIe 3.0 x16-class)
constexpr double kDefaultGpuSpeed = 1e12;            // 1Tf: one flop per reduced element
constexpr int kMaxCount = 100000;

LinkSpec read_link(JsonObjectReader& parent, std::string_view key, LinkSpec defaults) {
  const nlohmann::json* value = parent.optional_value(key);
  if (value == nullptr) return defaults;
  JsonObjectReader link(*value, parent.file(), parent.path_of(key));
  LinkSpec spec{link.optional_bandwidth("bandwidth").value_or(defaults.bandwidth_Bps),
                link.optional_latency("latency").value_or(defaults.latency_s)};
  link.finish();
  return spec;
}

void check_name(JsonObjectReader& reader, std::string_view key, const std::string& name) {
  if (name.empty() || name.find_first_of(" \t\n\"'<>&/") != std::string::npos)
    reader.fail(key, fmt::format("\"{}\" is not a usable name (non-empty, no spaces, quotes, <, >, & or /)", name));
}

}  // namespace

Topology scaled_bandwidths(Topology topology, double factor) {
  for (RackSpec& rack : topology.racks) {
    rack.switch_link.bandwidth_Bps *= factor;
    for (NodeSpec& node : rack.nodes) {
      node.nic.bandwidth_Bps *= factor;
      node.intra.bandwidth_Bps *= factor;
    }
  }
  return topology;
}

std::string host_name(const NodeSpec& node, int gpu) { return fmt::format("{}-gpu{}", node.name, gpu); }
std::string nic_link_name(const NodeSpec& node) { return node.name + "-nic"; }
std::string intra_link_name(const NodeSpec& node) { return node.name + "-intra"; }
std::string switch_link_name(const RackSpec& rack) { return rack.name + "-switch"; }

Topology load_topology(const std::filesystem::path& file) {
  const nlohmann::json root = load_json_file(file);
  const std::string name_of_file = file.string();
  JsonObjectReader top(root, name_of_file, "");
  Topology topology;
  topology.name = top.optional_string("name").value_or(file.stem().string());
  topology.description = top.optional_string("description").value_or("");
  const nlohmann::json& racks = top.required_value("racks");
  if (!racks.is_array() || racks.empty()) top.fail("racks", "expected a non-empty array of racks");
  if (racks.size() > 1)
    top.fail("racks", "several racks need a spine between them, which this version does not model yet; "
                      "describe one rack, or write SimGrid XML for the multi-rack platform");
  top.finish();

  std::set<std::string> names;
  for (std::size_t r = 0; r < racks.size(); ++r) {
    JsonObjectReader rack_reader(racks[r], name_of_file, top.path_of("racks", r));
    RackSpec rack;
    rack.name = rack_reader.optional_string("name").value_or(fmt::format("rack{}", r));
    check_name(rack_reader, "name", rack.name);
    // Zero bandwidth = not given: filled in once the rack's NICs are known.
    rack.switch_link = read_link(rack_reader, "switch", LinkSpec{0, kDefaultSwitchLatency});
    const nlohmann::json& nodes = rack_reader.required_value("nodes");
    if (!nodes.is_array() || nodes.empty()) rack_reader.fail("nodes", "expected a non-empty array of node groups");
    for (std::size_t g = 0; g < nodes.size(); ++g) {
      JsonObjectReader group(nodes[g], name_of_file, rack_reader.path_of("nodes", g));
      const std::string base = group.required_string("name");
      check_name(group, "name", base);
      const auto count = group.optional_int("count", 1, kMaxCount);
      NodeSpec node;
      node.gpus = static_cast<int>(group.optional_int("gpus", 1, 4096).value_or(1));
      node.nic = read_link(group, "nic", kDefaultNic);
      node.intra = read_link(group, "intra", kDefaultIntra);
      node.gpu_speed_flops = group.optional_speed("gpu_speed").value_or(kDefaultGpuSpeed);
      group.finish();
      // "count": 3 expands "node" to node0..node2; without count the name is used as written.
      for (std::int64_t i = 0; i < count.value_or(1); ++i) {
        node.name = count ? fmt::format("{}{}", base, i) : base;
        if (!names.insert(node.name).second)
          group.fail("name", fmt::format("node name \"{}\" is used twice", node.name));
        rack.nodes.push_back(node);
      }
    }
    rack_reader.finish();
    rack.switch_nonblocking = rack.switch_link.bandwidth_Bps == 0;
    if (rack.switch_nonblocking)  // a crossbar: no flow is slowed inside the switch, NICs are the limit
      for (const NodeSpec& node : rack.nodes)
        rack.switch_link.bandwidth_Bps = std::max(rack.switch_link.bandwidth_Bps, node.nic.bandwidth_Bps);
    if (!names.insert(rack.name).second)
      rack_reader.fail("name", fmt::format("rack name \"{}\" is also a node name", rack.name));
    topology.racks.push_back(std::move(rack));
  }
  return topology;
}

}  // namespace ringsim
