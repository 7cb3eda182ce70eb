// The measured trace of `validate` and `calibrate`: --measured, --format, --ranks and --select,
// read and grouped into cases the same way for both.
#pragma once

#include "../validate/measured_cases.h"
#include "../validate/trace_readers.h"
#include "command_line.h"

namespace ringsim {

struct TraceInput {
  std::string file;
  MeasuredTrace trace;
  GroupedTrace grouped;
};

// --collective NAME: the nccl-tests program to read from a log of several (default all_reduce_perf);
// which run was read is one stdout line when the log holds several.
// Throws UsageError when --measured is missing, InputError for unreadable or mismatched traces.
// IMB traces hold several process counts: without --ranks, the scenario placement's count is used.
TraceInput read_trace_input(const ParsedArguments& args, const Scenario& scenario, const std::string& command);

// One stdout line when the placement came from the trace's header ("# placement inferred from the
// trace's header: 4-4 block: ..."); unless QUIET, a note on stderr when the header implies another
// placement than the scenario's.
void print_placement_source(const TraceInput& input, const Scenario& scenario, bool quiet);

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

}  // namespace ringsim
