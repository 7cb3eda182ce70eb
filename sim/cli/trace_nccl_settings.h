// "Learning the run" from NCCL's own log lines (NCCL_DEBUG=INFO, or NCCL_* settings on the command
// line the log shows): the algorithm, protocol and channel count the measured run used become the
// simulated run's where the scenario (and a --model file) names none, each said on stdout; where the
// topology contradicts the log (a NIC index it does not have), a warning on stderr.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "trace_input.h"

namespace ringsim {

// Before the version is taken (adopt_trace_nccl_version): NCCL_ALGO=Ring selects nccl_ring and
// NCCL_ALGO=Tree nccl_tree for a scenario that names no algorithm; an nccl-tests run that forces none
// selects nccl (NCCL's own choice per size); another forced algorithm (NVLS, CollNet) is a note that
// ringsim does not model it.
void adopt_trace_nccl_algorithm(Scenario& scenario, const TraceInput& input);

// One stdout line per placement of an nccl-tests trace whose measured busbw exceeds what NCCL's ring
// can reach through the NICs the placement uses (NCCL's bus bandwidth for it): NCCL probably ran a tree;
// or, on one NVLink node, over NVLink: NCCL probably ran NVLS.
// Simulating nccl, also a line where NCCL may run an algorithm ringsim does not model (NVLS).
void note_tree_signature(const Scenario& scenario, const TraceInput& input, const Platform& platform);

// After it: NCCL_PROTO and the channels NCCL logged (else NCCL_MIN_NCHANNELS) become the model's
// nccl.protocol and nccl.channels for a scenario simulating NCCL's algorithms; then the warnings.
void adopt_trace_nccl_settings(Scenario& scenario, const TraceInput& input, const Platform& platform);

// Everything validate and calibrate learn from the run, in order: the algorithm, NCCL's version, the
// GPUs' generation, the network plugin's latency (trace_input.h), the topology's GPUs, then NCCL's
// protocol and channels.
void learn_trace_nccl_run(Scenario& scenario, const TraceInput& input, const Platform& platform);

}  // namespace ringsim
