#include "platform_xml.h"

#include "platform_plan.h"

#include <fmt/format.h>
#include <iterator>

namespace ringsim {
namespace {

// XML comments may not contain "--".
std::string comment_safe(std::string text) {
  for (std::size_t at; (at = text.find("--")) != std::string::npos;) text.replace(at, 2, "- -");
  return text;
}

// Writes the plan's links and routes as XML: every zone Full-routed, so a rack holds a zoneRoute per
// node pair (the rack star's route for that pair): the size grows with the square of the nodes.
class XmlWriter {
 public:
  explicit XmlWriter(const PlatformPlan& plan) : plan_(plan) {}

  // <link .../> plus the companion links of its background loads.
  std::string link(std::size_t index) const {
    const PlanLink& link = plan_.links()[index];
    std::string xml = link_xml(link);
    for (const PlanLink::Companion& companion : link.companions) xml += "\n    " + link_xml(plan_.links()[companion.link]);
    return xml;
  }

  std::string hops(const Hops& route) const {
    std::string xml;
    for (const Hop& hop : route) {
      const std::string& id = plan_.links()[hop.link].name;
      xml += hop.crossing == Crossing::whole ? fmt::format(R"(<link_ctn id="{}"/>)", id)
                                             : fmt::format(R"(<link_ctn id="{}" direction="{}"/>)", id, hop.crossing == Crossing::up ? "UP" : "DOWN");
    }
    return xml;
  }

  void node_zone(fmt::memory_buffer& out, std::size_t index) const {
    const PlanNode& node = plan_.nodes()[index];
    auto line = [&](std::string_view text) { fmt::format_to(std::back_inserter(out), "    {}\n", text); };  // inside a node zone
    fmt::format_to(std::back_inserter(out), "  <zone id=\"{}\" routing=\"Full\">\n", node.spec->name);
    for (const std::string& host : node.hosts) line(fmt::format(R"(<host id="{}" speed="{}f"/>)", host, node.spec->gpu_speed_flops));
    line(fmt::format(R"(<router id="{}"/>)", node.router));
    for (std::size_t link_index : node.declared) line(link(link_index));
    const int gpus = static_cast<int>(node.hosts.size());
    const bool one_bus = node.shared_bus();
    for (int a = 0; a < gpus; ++a)
      for (int b = a + 1; b < gpus; ++b) {
        if (one_bus) {
          line(fmt::format(R"(<route src="{}" dst="{}">{}</route>)", node.hosts[a], node.hosts[b], hops(plan_.gpu_to_gpu(index, a, b))));
          continue;
        }
        line(route(node.hosts[a], node.hosts[b], plan_.gpu_to_gpu(index, a, b)));
        line(route(node.hosts[b], node.hosts[a], plan_.gpu_to_gpu(index, b, a)));
      }
    for (int g = 0; g < gpus; ++g) {
      line(route(node.hosts[g], node.router, plan_.gpu_to_router(index, g)));
      line(route(node.router, node.hosts[g], plan_.router_to_gpu(index, g)));
    }
    fmt::format_to(std::back_inserter(out), "  </zone>\n");
  }

  void rack_zone(fmt::memory_buffer& out, std::size_t index) const {
    const PlanRack& rack = plan_.racks()[index];
    auto it = std::back_inserter(out);
    fmt::format_to(it, "<zone id=\"{}\" routing=\"Full\">\n", rack.spec->name);
    for (std::size_t node : rack.nodes) node_zone(out, node);
    // A zone holds either zones or hosts/routers: the rack's gateway router lives in a zone of its own.
    if (plan_.has_spine()) fmt::format_to(it, "  <zone id=\"{}\" routing=\"Full\"><router id=\"{}\"/></zone>\n", rack.core_zone, rack.router);
    fmt::format_to(it, "  {}\n", link(rack.switch_link));
    const auto& nodes = plan_.nodes();
    for (std::size_t a = 0; a < rack.nodes.size(); ++a) {
      const std::size_t from = rack.nodes[a];
      for (std::size_t b = a + 1; b < rack.nodes.size(); ++b) {
        const std::size_t to = rack.nodes[b];
        fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\">{}</zoneRoute>\n", nodes[from].spec->name,
                       nodes[to].spec->name, nodes[from].router, nodes[to].router,
                       hops(plan_.rack_route(index, a, b)));
      }
      if (plan_.has_spine())
        fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\">{}</zoneRoute>\n", nodes[from].spec->name,
                       rack.core_zone, nodes[from].router, rack.router, hops(plan_.rack_route(index, a, plan_.core_member(index))));
    }
    fmt::format_to(it, "</zone>\n");
  }

  // A rail fabric: one Full-routed zone holding every host, its nodes' links, the rail leaves, their
  // uplinks and the spine, and a route per ordered host pair (PlatformPlan::rail_route: which leaf a
  // transfer crosses depends on its GPUs, which no route between node zones can say).
  void rail_zone(fmt::memory_buffer& out) const {
    auto it = std::back_inserter(out);
    fmt::format_to(it, "<zone id=\"{}\" routing=\"Full\">\n", plan_.racks().front().spec->name);
    for (const PlanNode& node : plan_.nodes())
      for (const std::string& host : node.hosts) fmt::format_to(it, "  <host id=\"{}\" speed=\"{}f\"/>\n", host, node.spec->gpu_speed_flops);
    for (const PlanNode& node : plan_.nodes())
      for (std::size_t link_index : node.declared) fmt::format_to(it, "  {}\n", link(link_index));
    for (std::size_t link_index : plan_.rails_declared()) fmt::format_to(it, "  {}\n", link(link_index));
    const auto& nodes = plan_.nodes();
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (std::size_t b = 0; b < nodes.size(); ++b)
        for (std::size_t g = 0; g < nodes[a].hosts.size(); ++g)
          for (std::size_t h = 0; h < nodes[b].hosts.size(); ++h)
            if (a != b || g != h)
              fmt::format_to(it, "  {}\n", route(nodes[a].hosts[g], nodes[b].hosts[h],
                                                 plan_.route({a, static_cast<int>(g)}, {b, static_cast<int>(h)})));
    out.append(std::string_view("</zone>\n"));
  }

  void spine_zone(fmt::memory_buffer& out) const {
    auto it = std::back_inserter(out);
    fmt::format_to(it, "<zone id=\"{}\" routing=\"Full\">\n", kSpineLinkName);
    for (std::size_t r = 0; r < plan_.racks().size(); ++r) rack_zone(out, r);
    for (std::size_t link_index : plan_.spine_declared()) fmt::format_to(it, "  {}\n", link(link_index));
    const auto& racks = plan_.racks();
    for (std::size_t a = 0; a < racks.size(); ++a)
      for (std::size_t b = 0; b < racks.size(); ++b)
        if (a != b)
          fmt::format_to(it, "  <zoneRoute src=\"{}\" dst=\"{}\" gw_src=\"{}\" gw_dst=\"{}\" symmetrical=\"NO\">{}</zoneRoute>\n",
                         racks[a].spec->name, racks[b].spec->name, racks[a].router, racks[b].router,
                         hops(PlatformPlan::star_route(plan_.rack_up(a), plan_.rack_down(b))));
    out.append(std::string_view("</zone>\n"));
  }

 private:
  static std::string link_xml(const PlanLink& link) {
    // SimGrid reads "1.25e+09Bps" and "1e-06s"; shortest round-trip form keeps the values exact.
    return fmt::format(R"(<link id="{}" bandwidth="{}Bps" latency="{}s" sharing_policy="{}"/>)", link.name, link.spec.bandwidth_Bps,
                       link.spec.latency_s, link.split ? "SPLITDUPLEX" : "SHARED");
  }
  std::string route(const std::string& src, const std::string& dst, const Hops& route) const {
    return fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO">{}</route>)", src, dst, hops(route));
  }

  const PlatformPlan& plan_;
};

}  // namespace

std::string platform_xml(const PlatformPlan& plan) {
  const XmlWriter writer(plan);
  const Topology& topology = plan.topology();
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  out.append(std::string_view("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"));
  fmt::format_to(it, "<!-- Generated by ringsim from topology \"{}\"{}{} -->\n", comment_safe(topology.name),
                 topology.description.empty() ? "" : ": ", comment_safe(topology.description));
  out.append(std::string_view("<platform version=\"4.1\">\n"));
  if (plan.has_rails()) {
    writer.rail_zone(out);
  } else if (plan.has_spine()) {
    writer.spine_zone(out);
  } else {
    writer.rack_zone(out, 0);
  }
  out.append(std::string_view("</platform>\n"));
  return fmt::to_string(out);
}

std::string platform_xml(const Topology& topology, const PlatformModel& model) { return platform_xml(PlatformPlan(topology, model)); }

}  // namespace ringsim
