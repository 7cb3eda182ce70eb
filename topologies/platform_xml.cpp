#include "platform_xml.h"

#include <fmt/format.h>
#include <algorithm>
#include <iterator>

namespace ringsim {
namespace {

// XML comments may not contain "--".
std::string comment_safe(std::string text) {
  for (std::size_t at; (at = text.find("--")) != std::string::npos;) text.replace(at, 2, "- -");
  return text;
}

std::string router_name(const NodeSpec& node) { return node.name + "-router"; }
std::string rack_router_name(const RackSpec& rack) { return rack.name + "-router"; }
std::string rack_core_name(const RackSpec& rack) { return rack.name + "-core"; }
std::string stack_link_name(const NodeSpec& node, int gpu) { return host_name(node, gpu) + "-stack"; }

// Writes links and the link_ctn hops of routes, applying the model: half-duplex NICs lose their
// direction, and a link under background load gets a companion link of the bandwidth left over,
// crossed by exactly the flows that cross the loaded direction (so they share what is left).
class PlatformWriter {
 public:
  PlatformWriter(const Topology& topology, const PlatformModel& model) : model_(model) {
    for (const RackSpec& rack : topology.racks)
      for (const NodeSpec& node : rack.nodes)
        for (int k = 0; k < node.nics; ++k) nics_.push_back(nic_link_name(node, k));
  }

  const PlatformModel& model() const { return model_; }

  bool is_nic(const std::string& id) const { return std::find(nics_.begin(), nics_.end(), id) != nics_.end(); }

  // <link .../> plus the companion links of its background loads.
  std::string link(const std::string& id, const LinkSpec& spec, std::string sharing) const {
    if (sharing == "SPLITDUPLEX" && model_.nic_half_duplex && is_nic(id)) sharing = "SHARED";
    std::string xml = link_xml(id, spec, sharing);
    for (const BackgroundLoad& load : model_.background) {
      if (load.link != id) continue;
      const LinkSpec left{spec.bandwidth_Bps * (1 - load.fraction), 0};
      for (const char* direction : directions_of(load, sharing == "SPLITDUPLEX"))
        xml += "\n    " + link_xml(companion(id, direction), left, "SHARED");
    }
    return xml;
  }

  // <link_ctn> of LINK crossed in DIRECTION ("UP", "DOWN"; nullptr for links without direction).
  std::string hop(const std::string& id, const char* direction) const {
    if (direction != nullptr && model_.nic_half_duplex && is_nic(id)) direction = nullptr;
    std::string xml = direction ? fmt::format(R"(<link_ctn id="{}" direction="{}"/>)", id, direction)
                                : fmt::format(R"(<link_ctn id="{}"/>)", id);
    for (const BackgroundLoad& load : model_.background) {
      if (load.link != id) continue;
      for (const char* loaded : directions_of(load, direction != nullptr))
        if (direction == nullptr || std::string_view(loaded) == direction)
          xml += fmt::format(R"(<link_ctn id="{}"/>)", companion(id, loaded));
    }
    return xml;
  }

 private:
  // SimGrid reads "1.25e+09Bps" and "1e-06s"; shortest round-trip form keeps the values exact.
  static std::string link_xml(const std::string& id, const LinkSpec& link, const std::string& sharing) {
    return fmt::format(R"(<link id="{}" bandwidth="{}Bps" latency="{}s" sharing_policy="{}"/>)", id, link.bandwidth_Bps,
                       link.latency_s, sharing);
  }
  static std::vector<const char*> directions_of(const BackgroundLoad& load, bool split) {
    if (!split) return {"BOTH"};
    if (load.direction == "up") return {"UP"};
    if (load.direction == "down") return {"DOWN"};
    return {"UP", "DOWN"};
  }
  static std::string companion(const std::string& id, std::string_view direction) {
    return fmt::format("{}-background-{}", id, direction == "UP" ? "up" : direction == "DOWN" ? "down" : "both");
  }

  const PlatformModel& model_;
  std::vector<std::string> nics_;
};

void append_node_zone(fmt::memory_buffer& out, const NodeSpec& node, const PlatformWriter& writer) {
  auto line = [&](std::string_view text) { fmt::format_to(std::back_inserter(out), "    {}\n", text); };  // inside a node zone
  const auto& stack = writer.model().process_stack;
  auto stack_hop = [&](int gpu, const char* direction) {
    if (!stack) return std::string();
    return writer.hop(stack_link_name(node, gpu), stack->shared ? nullptr : direction);
  };
  fmt::format_to(std::back_inserter(out), "  <zone id=\"{}\" routing=\"Full\">\n", node.name);
  for (int g = 0; g < node.gpus; ++g)
    line(fmt::format(R"(<host id="{}" speed="{}f"/>)", host_name(node, g), node.gpu_speed_flops));
  line(fmt::format(R"(<router id="{}"/>)", router_name(node)));
  const bool nvlink = node.intra_kind == IntraKind::nvlink;
  if (nvlink) {
    for (int g = 0; g < node.gpus; ++g) line(writer.link(nvlink_port_name(node, g), node.intra, "SPLITDUPLEX"));
  } else {
    line(writer.link(intra_link_name(node), node.intra, "SHARED"));
  }
  for (int k = 0; k < node.nics; ++k) line(writer.link(nic_link_name(node, k), node.nic, "SPLITDUPLEX"));
  if (stack)
    for (int g = 0; g < node.gpus; ++g)
      line(writer.link(stack_link_name(node, g), LinkSpec{node.nic.bandwidth_Bps * stack->nic_ratio, stack->latency_s},
                       stack->shared ? "SHARED" : "SPLITDUPLEX"));
  for (int a = 0; a < node.gpus; ++a)
    for (int b = a + 1; b < node.gpus; ++b) {
      const std::string ha = host_name(node, a), hb = host_name(node, b);
      if (!nvlink) {
        line(fmt::format(R"(<route src="{}" dst="{}">{}</route>)", ha, hb, writer.hop(intra_link_name(node), nullptr)));
        continue;
      }
      line(fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO">{}{}</route>)", ha, hb,
                       writer.hop(nvlink_port_name(node, a), "UP"), writer.hop(nvlink_port_name(node, b), "DOWN")));
      line(fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO">{}{}</route>)", hb, ha,
                       writer.hop(nvlink_port_name(node, b), "UP"), writer.hop(nvlink_port_name(node, a), "DOWN")));
    }
  for (int g = 0; g < node.gpus; ++g) {
    const std::string nic = nic_link_name(node, nic_of_gpu(node, g));
    line(fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO">{}{}</route>)", host_name(node, g), router_name(node),
                     stack_hop(g, "UP"), writer.hop(nic, "UP")));
    line(fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO">{}{}</route>)", router_name(node), host_name(node, g),
                     writer.hop(nic, "DOWN"), stack_hop(g, "DOWN")));
  }
  fmt::format_to(std::back_inserter(out), "  </zone>\n");
}

void append_rack_zone(fmt::memory_buffer& out, const RackSpec& rack, bool under_spine, const PlatformWriter& writer) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "<zone id=\"{}\" routing=\"Full\">\n", rack.name);
  for (const NodeSpec& node : rack.nodes) append_node_zone(out, node, writer);
  // A zone holds either zones or hosts/routers: the rack's gateway router lives in a zone of its own.
  if (under_spine) fmt::format_to(it, "  <zone id=\"{}\" routing=\"Full\"><router id=\"{}\"/></zone>\n", rack_core_name(rack), rack_router_name(rack));
  fmt::format_to(it, "  {}\n", writer.link(switch_link_name(rack), rack.switch_link, "SHARED"));
  const std::string through_switch = writer.hop(switch_link_name(rack), nullptr);
  for (std::size_t a = 0; a < rack.nodes.size(); ++a) {
    for (std::size_t b = a + 1; b < rack.nodes.size(); ++b)
      fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\">{}</zoneRoute>\n", rack.nodes[a].name,
                     rack.nodes[b].name, router_name(rack.nodes[a]), router_name(rack.nodes[b]), through_switch);
    if (under_spine)
      fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\">{}</zoneRoute>\n", rack.nodes[a].name,
                     rack_core_name(rack), router_name(rack.nodes[a]), rack_router_name(rack), through_switch);
  }
  fmt::format_to(it, "</zone>\n");
}

}  // namespace

std::string platform_xml(const Topology& topology, const PlatformModel& model) {
  const PlatformWriter writer(topology, model);
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  out.append(std::string_view("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"));
  fmt::format_to(it, "<!-- Generated by ringsim from topology \"{}\"{}{} -->\n", comment_safe(topology.name),
                 topology.description.empty() ? "" : ": ", comment_safe(topology.description));
  out.append(std::string_view("<platform version=\"4.1\">\n"));
  if (!topology.spine) {
    append_rack_zone(out, topology.racks.front(), false, writer);
  } else {
    fmt::format_to(it, "<zone id=\"{}\" routing=\"Full\">\n", kSpineLinkName);
    for (const RackSpec& rack : topology.racks) append_rack_zone(out, rack, true, writer);
    for (const RackSpec& rack : topology.racks) fmt::format_to(it, "  {}\n", writer.link(uplink_name(rack), rack.uplink, "SPLITDUPLEX"));
    fmt::format_to(it, "  {}\n", writer.link(kSpineLinkName, *topology.spine, "SHARED"));
    for (const RackSpec& a : topology.racks)
      for (const RackSpec& b : topology.racks)
        if (&a != &b)
          fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\" symmetrical=\"NO\">{}{}{}</zoneRoute>\n",
                         a.name, b.name, rack_router_name(a), rack_router_name(b), writer.hop(uplink_name(a), "UP"),
                         writer.hop(kSpineLinkName, nullptr), writer.hop(uplink_name(b), "DOWN"));
    out.append(std::string_view("</zone>\n"));
  }
  out.append(std::string_view("</platform>\n"));
  return fmt::to_string(out);
}

}  // namespace ringsim
