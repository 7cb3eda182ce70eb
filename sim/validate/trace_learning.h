// "Learning the run" from NCCL's own log lines (NCCL_DEBUG=INFO, or NCCL_* settings on the command
// line the log shows): the algorithm, protocol and channel count the measured run used become the
// simulated run's where the scenario (and a --model file) names none, each said on stdout; where the
// topology contradicts the log's hops (their transport, GPUDirect RDMA), a warning on stderr.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "measured_cases.h"
#include "trace_readers.h"

namespace ringsim {

// A measured trace as `validate` and `calibrate` read it (sim/cli/trace_input.h): the file, the trace and
// its cases grouped by placement.
struct TraceInput {
  std::string file;
  MeasuredTrace trace;
  GroupedTrace grouped;
};

// Whether SCENARIO runs one of NCCL's algorithms: only then do a trace's NCCL facts set its model.
bool simulates_nccl(const Scenario& scenario);

// "Learning the run": a scenario that simulates nccl_ring and names no NCCL version (neither it nor
// a --model file) takes the version the trace's header printed, which sets NCCL's channel count and
// protocol choice (docs/scenario-format.md); one stdout line says so. Throws InputError when the
// trace's version is one the scenario's forced protocol does not exist in.
void adopt_trace_nccl_version(Scenario& scenario, const TraceInput& input);

// Likewise the GPUs an nccl-tests header names ("NVIDIA H100 80GB HBM3") set the model's
// nccl.compute_capability when the scenario and --model name none: NCCL's model (NVLink's per-link
// payload, LL128, its Volta and Hopper factors) depends on the generation. One stdout line says so; GPUs
// of several or unknown generations leave it and say so on stderr.
void adopt_trace_gpu_generation(Scenario& scenario, const TraceInput& input);

// Likewise the latency a network plugin logs ("NET/OFI Internode latency set at 75.0 us") sets the model's
// nccl.net_latency, which NCCL's model adds to its network hops from 2.12 (its algorithm and protocol
// choice, its closed form); the simulated wire does not pay it. One stdout line says so.
void adopt_trace_net_latency(Scenario& scenario, const TraceInput& input);


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
