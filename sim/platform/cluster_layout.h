// What placement needs to know about a platform: its nodes, in order, and each node's rank slots.
#pragma once

#include "simgrid_xml_check.h"
#include "topology.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct NodeSlots {
  std::string name;
  std::vector<std::string> hosts;  // one SimGrid host per rank slot, in slot order
};

struct ClusterLayout {
  std::vector<NodeSlots> nodes;
};

ClusterLayout layout_of(const Topology& topology);

// A scenario's platform: a compact topology (XML generated from it) or a hand-written SimGrid XML.
struct Platform {
  std::filesystem::path source;
  std::optional<Topology> topology;  // set for compact topologies (their XML is generated per model)
  ClusterLayout layout;
};

// Chooses by extension: ".xml" is SimGrid XML, anything else compact topology JSON.
// SimGrid XML is loaded through SimGrid itself (once per process: SimGrid's engine is a singleton);
// its nodes are the zones that directly hold hosts, in document order, hosts in natural name order;
// a flat platform's hosts are one node each. Throws InputError naming the file.
Platform load_platform(const std::filesystem::path& file);

}  // namespace ringsim

namespace simgrid::s4u {
class Engine;
}

namespace ringsim {

// SimGrid's engine with FILE loaded: created at the first call, then kept (SimGrid allows one engine
// and one platform per process; another FILE is an InputError). Throws InputError for a bad file.
const simgrid::s4u::Engine& simgrid_platform(const std::filesystem::path& file);

// Loads FILE and its cluster layout in a child process (simgrid_xml_check.h): how it went.
ChildLoad load_simgrid_xml_in_child(const std::filesystem::path& file);

// Throws InputError "FILE:LINE: ..." when SimGrid refuses FILE or dies on it, in a child process;
// simgrid_platform calls it before loading FILE in this process.
void check_simgrid_xml(const std::filesystem::path& file);

}  // namespace ringsim
