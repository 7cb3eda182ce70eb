#include "../analysis/topology_graph.h"
#include "../common/atomic_file.h"
#include "../model/model_settings.h"
#include "../platform/plan_file.h"
#include "../platform/platform_xml.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kPlatformUsage = R"(usage: ringsim platform TOPOLOGY.json [-o FILE.xml|FILE.json] [--dot] [--model MODEL.json]

Writes the SimGrid platform (XML v4.1) of a compact topology: one host per GPU ("node0-gpu0"), one
split-duplex link per NIC ("node0-nic", or "node0-nic0".. with several), the intra-node fabric (a shared
bus "node0-intra", or one NVLink port per GPU "node0-gpu0-nvlink"), the rack switch ("rack0-switch"),
and with several racks each rack's uplink ("rack0-uplink") and the "spine". Without -o the XML goes to
standard output. --dot writes the topology graph ringsim analyze uses as Graphviz DOT instead (render
with: dot -Tsvg). --model applies a model file's process_stack, nic_sharing and background, as
ringsim run does.

The XML routes every node pair of a rack explicitly, so it grows with the square of the nodes (1024
single-GPU nodes: ~70 MB); on a rail fabric every GPU pair. ringsim run instead writes the platform plan (-o FILE.json writes it too)
and has SimGrid build it through libringsim-platform.so, beside ringsim, with star-routed racks:
  RINGSIM_PLATFORM_PLAN=FILE.json smpirun -platform build/libringsim-platform.so ...
)";

// Past this many zone routes the XML is tens of megabytes: say what to use instead.
constexpr std::size_t kLargeXmlZoneRoutes = 100'000;

}  // namespace

int platform_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(argc, argv, 1, "platform", {"-o", "--output", "--model"}, {"--dot"});
  if (args.has("--help")) {
    std::fputs(kPlatformUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim platform: expected exactly one TOPOLOGY.json");
  const ModelSettings model = args.value("--model") ? load_model_file(*args.value("--model"), ModelSettings{}) : ModelSettings{};
  const Topology topology = model.shape(load_topology(args.positional[0]));
  const auto routes = routes_under_model(topology, model.platform_model(), args.value("--model").value_or(args.positional[0]));
  auto output = args.value("-o");
  if (!output) output = args.value("--output");
  const bool plan = output && std::filesystem::path(*output).extension() == ".json";
  if (!args.has("--dot") && !plan) {
    std::size_t zone_routes = 0, hosts = 0;
    for (const RackSpec& rack : topology.racks) {
      zone_routes += rack.nodes.size() * rack.nodes.size() / 2;
      for (const NodeSpec& node : rack.nodes) hosts += static_cast<std::size_t>(node.gpus);
    }
    if (topology.rails) zone_routes = hosts * (hosts - 1);  // a rail fabric's XML routes every host pair
    if (zone_routes > kLargeXmlZoneRoutes)
      fmt::print(stderr, "ringsim platform: note: {} zone routes make this XML large; -o FILE.json writes the platform plan "
                         "that ringsim run loads through libringsim-platform.so (ringsim platform --help)\n", zone_routes);
  }
  const std::string xml = args.has("--dot") ? routes->dot(topology.name)
                          : plan            ? plan_file_json(topology, model.platform_model())
                                            : platform_xml(topology, model.platform_model());
  if (output) {
    write_file_atomically(*output, xml);
  } else {
    std::fputs(xml.c_str(), stdout);
  }
  return 0;
}

}  // namespace ringsim
