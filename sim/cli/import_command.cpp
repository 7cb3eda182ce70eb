// `ringsim import`: a compact topology from what a cluster prints (docs/describing-your-cluster.md).
#include "../common/atomic_file.h"
#include "../import/imported_topology.h"
#include "../import/print_readers.h"
#include "command_line.h"
#include "commands.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kImportUsage = R"(usage: ringsim import PRINT... [-o TOPOLOGY.json] [--nodes N] [--name NAME]

Writes a compact topology (docs/topology-format.md) from what a cluster prints, each print's kind
found from its content:
  NCCL's topology XML      NCCL_TOPO_DUMP_FILE=node.xml (any NCCL run), or a vendor's NCCL_TOPO_FILE
  nvidia-smi topo -m       the GPU and NIC matrix (NV#, PIX, PXB, PHB, NODE, SYS); -mp too
  NCCL's INFO lines        a log of any NCCL run with NCCL_DEBUG=INFO (nccl-tests, a training job)
  ibstat / ibv_devinfo     each HCA's port rate and link layer (Ethernet: RoCE)
  Slurm's topology.conf    leaf switches and their nodes (one rack each); scontrol show topology
Each fact comes from the print that states it best; where two prints disagree a warning on standard
error names both. The topology's description says, fact by fact, which print (file:line) it came
from and what was left at the format's defaults.

options:
  -o, --output FILE  the topology to write (atomically); without it, standard output
  --nodes N          the node count when no print gives it (topology.conf and NCCL's log do)
  --name NAME        the topology's name (default: imported)

A print ringsim cannot read gets one line, "ringsim: FILE:LINE: what was expected", exit status 2.
)";

}  // namespace

int import_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(argc, argv, 1, "import", {"-o", "--output", "--nodes", "--name"}, {});
  if (args.has("--help")) {
    std::fputs(kImportUsage, stdout);
    return 0;
  }
  if (args.positional.empty()) throw UsageError("ringsim import: expected at least one PRINT");
  ImportOptions options;
  if (auto nodes = args.value("--nodes")) options.nodes = positive_int_option("--nodes", *nodes);
  if (auto name = args.value("--name")) {
    if (name->empty() || name->find_first_of(" \t\n\"'<>&/") != std::string::npos)
      throw UsageError(fmt::format("ringsim import: --name \"{}\" is not a usable name (non-empty, no spaces, quotes, <, >, & or /)", *name));
    options.name = *name;
  }
  std::vector<PrintFacts> prints;
  for (const auto& file : args.positional) prints.push_back(read_print(file));
  const ImportedTopology imported = import_topology(prints, options);
  for (const auto& warning : imported.warnings) fmt::print(stderr, "ringsim import: warning: {}\n", warning);
  const std::string text = imported.topology.dump(2) + "\n";
  auto output = args.value("-o");
  if (!output) output = args.value("--output");
  if (output) write_file_atomically(*output, text);
  else std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace ringsim
