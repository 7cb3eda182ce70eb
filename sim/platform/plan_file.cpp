#include "plan_file.h"

#include "../common/json_input.h"

#include <limits>
#include <nlohmann/json.hpp>

namespace ringsim {
namespace {

using nlohmann::json;

json link_json(const LinkSpec& link) { return {link.bandwidth_Bps, link.latency_s}; }
// [bandwidth in B/s, latency in s], both finite and not negative.
LinkSpec link_of(const JsonValue& value) {
  const std::vector<JsonValue> pair = value.array();
  if (pair.size() != 2) value.fail("expected [bandwidth, latency]");
  constexpr double kMax = std::numeric_limits<double>::max();
  return {pair[0].number(0, kMax), pair[1].number(0, kMax)};
}

json node_json(const NodeSpec& node) {
  json value = {{"name", node.name}, {"gpus", node.gpus}, {"nic", link_json(node.nic)}, {"nics", node.nics},
                {"intra_kind", static_cast<int>(node.intra_kind)}, {"intra", link_json(node.intra)}, {"gpu_speed", node.gpu_speed_flops}};
  // Only when it is not the kind's default, so that plans of topologies without it stay byte-identical.
  if (node.intra_ports != (node.intra_kind == IntraKind::nvlink)) value["intra_ports"] = node.intra_ports;
  if (!node.nic_affinity.empty()) value["nic_affinity"] = node.nic_affinity;
  if (node.nic_transport != NicTransport::tcp) value["nic_transport"] = static_cast<int>(node.nic_transport);
  if (node.switch_gpus > 0) value["pcie_switch"] = {node.switch_gpus, link_json(node.pcie_switch)};
  if (!node.gdr) value["gdr"] = false;
  if (stages_over_host_pcie(node)) value["host_pcie"] = link_json(node.host_pcie);
  return value;
}

NodeSpec node_of(const JsonValue& value) {
  JsonObjectReader fields = value.object();
  constexpr int kMaxInt = std::numeric_limits<int>::max();
  NodeSpec node;
  node.name = fields.required_string("name");
  node.gpus = static_cast<int>(fields.required_int("gpus", 1, kMaxInt));
  node.nic = link_of(fields.required("nic"));
  node.nics = static_cast<int>(fields.required_int("nics", 1, kMaxInt));
  node.intra_kind = static_cast<IntraKind>(fields.required_int("intra_kind", 0, static_cast<int>(IntraKind::nvlink)));
  node.intra_ports = fields.optional_bool("intra_ports").value_or(node.intra_kind == IntraKind::nvlink);
  node.intra = link_of(fields.required("intra"));
  node.gpu_speed_flops = fields.required_number("gpu_speed", 0, std::numeric_limits<double>::max());
  if (const nlohmann::json* affinity = fields.optional_value("nic_affinity")) {
    if (!affinity->is_array()) fields.fail("nic_affinity", "expected a list of NIC indices, -1 for none");
    for (const nlohmann::json& entry : *affinity) {
      const auto nic = json_integer<int>(entry, -1, node.nics - 1);
      if (!nic) fields.fail("nic_affinity", "expected a list of NIC indices, -1 for none");
      node.nic_affinity.push_back(*nic);
    }
  }
  node.nic_transport = static_cast<NicTransport>(fields.optional_int("nic_transport", 0, static_cast<int>(NicTransport::cxi)).value_or(0));
  if (const auto pcie_switch = fields.optional("pcie_switch")) {
    const std::vector<JsonValue> pair = pcie_switch->array();
    if (pair.size() != 2) pcie_switch->fail("expected [gpus per switch, [bandwidth, latency]]");
    node.switch_gpus = static_cast<int>(pair[0].integer(1, node.gpus));
    node.pcie_switch = link_of(pair[1]);
  }
  node.gdr = fields.optional_bool("gdr").value_or(true);
  if (const auto host_pcie = fields.optional("host_pcie")) node.host_pcie = link_of(*host_pcie);
  fields.finish();
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
  if (model.nccl_staging) document["nccl_staging"] = true;
  if (model.nccl_pxn && topology.rails) document["nccl_pxn"] = true;  // it changes no other topology's routes
  if (const auto& rails = topology.rails)
    document["rails"] = {{"rails", rails->rails}, {"leaf", link_json(rails->leaf)}, {"leaf_nonblocking", rails->leaf_nonblocking},
                         {"uplink", link_json(rails->uplink)}, {"spine", link_json(rails->spine)},
                         {"spine_nonblocking", rails->spine_nonblocking}};
  return document.dump() + "\n";
}

std::pair<Topology, PlatformModel> read_plan_file(const std::filesystem::path& file) {
  // Written by ringsim itself (plan_file_json), yet read with the checked accessor like every JSON file.
  const json content = load_json_file(file);
  JsonObjectReader document = JsonValue(content, file.string(), "").object();
  Topology topology;
  topology.name = document.required_string("name");
  topology.description = document.required_string("description");
  for (const JsonValue& rack_value : document.required("racks").array()) {
    JsonObjectReader rack_fields = rack_value.object();
    RackSpec rack;
    rack.name = rack_fields.required_string("name");
    rack.switch_link = link_of(rack_fields.required("switch"));
    rack.switch_nonblocking = rack_fields.required_bool("switch_nonblocking");
    rack.uplink = link_of(rack_fields.required("uplink"));
    for (const JsonValue& node : rack_fields.required("nodes").array()) rack.nodes.push_back(node_of(node));
    rack_fields.finish();
    topology.racks.push_back(std::move(rack));
  }
  if (const auto spine = document.optional("spine")) topology.spine = link_of(*spine);
  topology.spine_nonblocking = document.required_bool("spine_nonblocking");
  PlatformModel model;
  model.nic_half_duplex = document.required_bool("nic_half_duplex");
  model.nccl_staging = document.optional_bool("nccl_staging").value_or(false);
  model.nccl_pxn = document.optional_bool("nccl_pxn").value_or(false);
  if (const auto rails = document.optional("rails")) {
    JsonObjectReader fields = rails->object();
    topology.rails = RailFabric{static_cast<int>(fields.required_int("rails", 1, std::numeric_limits<int>::max())),
                                link_of(fields.required("leaf")), fields.required_bool("leaf_nonblocking"),
                                link_of(fields.required("uplink")), link_of(fields.required("spine")),
                                fields.required_bool("spine_nonblocking")};
    fields.finish();
  }
  if (const auto stack = document.optional("process_stack")) {
    JsonObjectReader fields = stack->object();
    model.process_stack = ProcessStack{fields.required_number("nic_ratio", 0, std::numeric_limits<double>::max()),
                                       fields.required_bool("shared"),
                                       fields.required_number("latency", 0, std::numeric_limits<double>::max())};
    fields.finish();
  }
  for (const JsonValue& load : document.required("background").array()) {
    JsonObjectReader fields = load.object();
    model.background.push_back({fields.required_string("link"), fields.required_string("direction"),
                                fields.required_number("fraction", 0, 1)});
    fields.finish();
  }
  document.finish();
  return {std::move(topology), std::move(model)};
}

}  // namespace ringsim
