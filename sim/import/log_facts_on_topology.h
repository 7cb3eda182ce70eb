// What a run's NCCL INFO lines say about its nodes (read as `ringsim import` reads them,
// readers/nccl_info_print.cpp, merged by fact_merge.h) set against the topology a scenario simulates
// the run on: a key a node group leaves out (where the format's default would be taken) is filled from
// the log, and a key it states with a value the log contradicts is a warning. validate and calibrate
// apply it before they simulate (sim/cli/log_topology_facts.cpp).
#pragma once

#include "print_facts.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct LogFactsOnTopology {
  nlohmann::json topology;            // the topology's JSON with the keys it left out filled from the log
  std::vector<std::string> filled;    // "4 NICs per node (\"nics\": 4; trace.txt:12: NET/IB : Using [0]mlx5_0:1/IB ...)"
  std::vector<std::string> warnings;  // "topo.json: /racks/0/nodes/0/nics is 2, but the log says 4 NICs per node (trace.txt:12: ...)"
};

// TOPOLOGY: the JSON of TOPOLOGY_FILE (as written, before defaults); LOG: the facts of the trace's INFO
// lines; LOG_TEXT: the trace, to quote the line each fact was read from. Facts: GPUs per node (a stated
// count may exceed the run's ranks on a node), the NICs NCCL uses per node, their transport and rate,
// GPUDirect RDMA, NVSwitch or a GPU pair's NVLink ("intra" kind nvlink). Transport and GPUDirect RDMA are only filled: where
// the topology states them, the hops between nodes are checked by sim/validate (trace_learning.h).
LogFactsOnTopology log_facts_on_topology(const nlohmann::json& topology, const std::string& topology_file, const PrintFacts& log,
                                         std::string_view log_text);

}  // namespace ringsim
