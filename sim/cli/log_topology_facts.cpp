#include "log_topology_facts.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../import/log_facts_on_topology.h"
#include "../import/print_readers.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {

void adopt_log_topology_facts(Platform& platform, const TraceInput& input) {
  if (!platform.topology) return;
  const std::string text = read_input_file(input.file);
  if (!detect_nccl_info_print(text)) return;
  PrintFacts log;
  try {
    log = read_nccl_info_print(text, input.file);
  } catch (const InputError&) {
    return;  // INFO lines that name nothing of the nodes (the run's settings only): no fact to set
  }
  const LogFactsOnTopology facts = log_facts_on_topology(load_json_file(platform.source), platform.source.string(), log, text);
  for (const std::string& warning : facts.warnings) fmt::print(stderr, "ringsim: warning: {}\n", warning);
  for (const std::string& filled : facts.filled) fmt::print("# from the log: {}\n", filled);
  if (facts.filled.empty()) return;
  platform.topology = read_topology_json(facts.topology, platform.source);
  platform.layout = layout_of(*platform.topology);
}

}  // namespace ringsim
