#include "../../topologies/platform_xml.h"
#include "../../topologies/topology_graph.h"
#include "../common/atomic_file.h"
#include "../launcher/model_settings.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kPlatformUsage = R"(usage: ringsim platform TOPOLOGY.json [-o FILE.xml] [--dot] [--model MODEL.json]

Writes the SimGrid platform (XML v4.1) of a compact topology: one host per GPU ("node0-gpu0"), one
split-duplex link per NIC ("node0-nic", or "node0-nic0".. with several), the intra-node fabric (a shared
bus "node0-intra", or one NVLink port per GPU "node0-gpu0-nvlink"), the rack switch ("rack0-switch"),
and with several racks each rack's uplink ("rack0-uplink") and the "spine". Without -o the XML goes to
standard output. --dot writes the topology graph ringsim analyze uses as Graphviz DOT instead (render
with: dot -Tsvg). --model applies a model file's process_stack, nic_sharing and background, as
ringsim run does.
)";

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
  const std::string xml = args.has("--dot") ? routes->dot(topology.name) : platform_xml(topology, model.platform_model());
  auto output = args.value("-o");
  if (!output) output = args.value("--output");
  if (output) {
    write_file_atomically(*output, xml);
  } else {
    std::fputs(xml.c_str(), stdout);
  }
  return 0;
}

}  // namespace ringsim
