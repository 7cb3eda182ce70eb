// The facts of several prints (print_facts.h, merged by fact_merge.h) as one compact topology (docs/topology-format.md):
// each fact from the print that states it best, a warning wherever two prints disagree, and a
// description that names, fact by fact, the print (file and line) it came from and what was left at
// the format's defaults.
#pragma once

#include "print_facts.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct ImportOptions {
  std::string name = "imported";  // the topology's name (--name)
  std::optional<int> nodes;       // --nodes: the node count when no print gives it, or over them
};

struct ImportedTopology {
  nlohmann::ordered_json topology;    // the compact topology, ready to write
  std::vector<std::string> warnings;  // "NIC rate: ib.txt:12 says 400 Gb/s, node.xml:30 says 200 Gb/s; ..."
};

// PRINTS in the order given on the command line; what no print states is left at the format's defaults
// and said so in the description.
ImportedTopology import_topology(const std::vector<PrintFacts>& prints, const ImportOptions& options);

}  // namespace ringsim
