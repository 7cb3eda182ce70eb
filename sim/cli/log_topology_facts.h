// validate's and calibrate's topology with what the trace's NCCL INFO lines say of its nodes
// (sim/import/log_facts_on_topology.h): each key the topology leaves out that the log states is
// filled, one "# from the log: ..." line each; each stated key the log contradicts is one warning.
#pragma once

#include "../platform/cluster_layout.h"
#include "../validate/trace_learning.h"

namespace ringsim {

// Nothing for SimGrid XML, or a trace without NCCL INFO lines naming the nodes.
void adopt_log_topology_facts(Platform& platform, const TraceInput& input);

}  // namespace ringsim
