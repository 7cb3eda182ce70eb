#include "plan_file.h"

#include "../common/input_error.h"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ringsim {
namespace {

using nlohmann::json;

json link_json(const LinkSpec& link) { return {link.bandwidth_Bps, link.latency_s}; }
LinkSpec link_of(const json& value) { return {value.at(0).get<double>(), value.at(1).get<double>()}; }

json node_json(const NodeSpec& node) {
  json value = {{"name", node.name}, {"gpus", node.gpus}, {"nic", link_json(node.nic)}, {"nics", node.nics},
                {"intra_kind", static_cast<int>(node.intra_kind)}, {"intra", link_json(node.intra)}, {"gpu_speed", node.gpu_speed_flops}};
  // Only when it is not the kind's default, so that plans of topologies without it stay byte-identical.
  if (node.intra_ports != (node.intra_kind == IntraKind::nvlink)) value["intra_ports"] = node.intra_ports;
  if (!node.nic_affinity.empty()) value["nic_affinity"] = node.nic_affinity;
  if (node.nic_transport != NicTransport::tcp) value["nic_transport"] = static_cast<int>(node.nic_transport);
  return value;
}

NodeSpec node_of(const json& value) {
  NodeSpec node;
  node.name = value.at("name").get<std::string>();
  node.gpus = value.at("gpus").get<int>();
  node.nic = link_of(value.at("nic"));
  node.nics = value.at("nics").get<int>();
  node.intra_kind = static_cast<IntraKind>(value.at("intra_kind").get<int>());
  node.intra_ports = value.value("intra_ports", node.intra_kind == IntraKind::nvlink);
  node.intra = link_of(value.at("intra"));
  node.gpu_speed_flops = value.at("gpu_speed").get<double>();
  if (value.contains("nic_affinity")) node.nic_affinity = value.at("nic_affinity").get<std::vector<int>>();
  if (value.contains("nic_transport")) node.nic_transport = static_cast<NicTransport>(value.at("nic_transport").get<int>());
  return node;
}

}  // namespace

std::string plan_file_json(const Topology& topology, const PlatformModel& model) {
  json racks = json::array();
  for (const RackSpec& rack : topology.racks) {
    json nodes = json::array();
    for (const NodeSpec& node : rack.nodes) nodes.push_back(node_json(node));
    racks.push_back({{"name", rack.name}, {"switch", link_json(rack.switch_link)}, {"switch_nonblocking", rack.switch_nonblocking},
                     {"uplink", link_json(rack.uplink)}, {"nodes", std::move(nodes)}});
  }
  json document = {{"name", topology.name}, {"description", topology.description}, {"racks", std::move(racks)},
                   {"spine_nonblocking", topology.spine_nonblocking}, {"nic_half_duplex", model.nic_half_duplex}};
  if (topology.spine) document["spine"] = link_json(*topology.spine);
  if (const auto& stack = model.process_stack)
    document["process_stack"] = {{"nic_ratio", stack->nic_ratio}, {"shared", stack->shared}, {"latency", stack->latency_s}};
  json background = json::array();
  for (const BackgroundLoad& load : model.background)
    background.push_back({{"link", load.link}, {"direction", load.direction}, {"fraction", load.fraction}});
  document["background"] = std::move(background);
  return document.dump() + "\n";
}

std::pair<Topology, PlatformModel> read_plan_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot read the platform plan (does it exist?)", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  try {
    const json document = json::parse(text.str());
    Topology topology;
    topology.name = document.at("name").get<std::string>();
    topology.description = document.at("description").get<std::string>();
    for (const json& rack_value : document.at("racks")) {
      RackSpec rack;
      rack.name = rack_value.at("name").get<std::string>();
      rack.switch_link = link_of(rack_value.at("switch"));
      rack.switch_nonblocking = rack_value.at("switch_nonblocking").get<bool>();
      rack.uplink = link_of(rack_value.at("uplink"));
      for (const json& node : rack_value.at("nodes")) rack.nodes.push_back(node_of(node));
      topology.racks.push_back(std::move(rack));
    }
    if (document.contains("spine")) topology.spine = link_of(document.at("spine"));
    topology.spine_nonblocking = document.at("spine_nonblocking").get<bool>();
    PlatformModel model;
    model.nic_half_duplex = document.at("nic_half_duplex").get<bool>();
    if (document.contains("process_stack")) {
      const json& stack = document.at("process_stack");
      model.process_stack = ProcessStack{stack.at("nic_ratio").get<double>(), stack.at("shared").get<bool>(), stack.at("latency").get<double>()};
    }
    for (const json& load : document.at("background"))
      model.background.push_back({load.at("link").get<std::string>(), load.at("direction").get<std::string>(), load.at("fraction").get<double>()});
    return {std::move(topology), std::move(model)};
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not a ringsim platform plan: {}", file.string(), e.what()));
  }
}

}  // namespace ringsim
