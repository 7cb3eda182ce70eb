#include "../../topologies/platform_xml.h"
#include "../../topologies/topology_graph.h"
#include "../common/atomic_file.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kPlatformUsage = R"(usage: ringsim platform TOPOLOGY.json [-o FILE.xml] [--dot]

Writes the SimGrid platform (XML v4.1) of a compact topology: one host per GPU ("node0-gpu0"), one
split-duplex NIC link per node ("node0-nic"), one shared intra-node link per node ("node0-intra"), and the
rack switch ("rack0-switch"). Without -o the XML goes to standard output. --dot writes the topology
graph ringsim analyze uses as Graphviz DOT instead (render with: dot -Tsvg).
)";

}  // namespace

int platform_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(argc, argv, 1, "platform", {"-o", "--output"}, {"--dot"});
  if (args.has("--help")) {
    std::fputs(kPlatformUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim platform: expected exactly one TOPOLOGY.json");
  const Topology topology = load_topology(args.positional[0]);
  const std::string xml = args.has("--dot") ? topology_dot(topology, std::nullopt) : platform_xml(topology);
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
