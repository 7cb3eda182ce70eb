// A measured trace as the validator uses it, whatever format it came from: (size, time) points,
// with placement and rank count where the format records them, and what the tool printed about the
// run itself (library version, where each rank ran) where it prints that.
#pragma once

#include "../rank/collective_catalog.h"

#include "nccl_run_facts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct MeasuredPoint {
  std::uint64_t bytes = 0;
  double time_s = 0;      // the time the format reports for one allreduce (see MeasuredTrace::time_meaning)
  std::string placement;  // "4-3-1" for ringsim traces; empty when the format does not say
  std::string order;      // "block" / "cyclic"; empty when unknown
  std::optional<int> ranks;
  int line = 0;  // where the point was read, for messages
};

// One rank of the measured run, as nccl-tests lists it ("#  Rank  5 ... on node1 device  1 ...").
struct MeasuredRank {
  int rank = 0;
  std::string host;
  int device = 0;
  int line = 0;
  std::string gpu;  // the device's name after its bus id ("NVIDIA H100 80GB HBM3"), or empty
};

// What a trace's header says about the run: every rank's host and device, in rank order (rank r at
// index r; the reader checks the numbers are 0..N-1, each once), and the collective library's version
// when printed ("2.6.4" from "NCCL version 2.6.4+cuda10.1").
struct MeasuredRun {
  std::string library;  // "NCCL"
  std::optional<std::string> library_version;
  std::vector<MeasuredRank> ranks;
  int header_line = 0;  // the first "# Rank" line, for messages
  std::optional<NcclRunFacts> nccl;  // what NCCL's INFO lines say, when the log has them

  // Host names in order of first appearance (rank 0's host first).
  std::vector<std::string> hosts() const;
};

struct MeasuredTrace {
  std::string format;        // the reader's registered name
  std::string time_meaning;  // what time_s is, e.g. "t_max (slowest rank), averaged over repetitions"
  std::optional<int> ranks;  // when the whole trace has one rank count
  std::optional<MeasuredRun> run;  // when the format's header describes the run (nccl-tests)
  // Which part of the file was read, when it holds several runs: "all_reduce_perf (lines 40 to 112;
  // the log holds 6 runs: ...)"; empty when the file is one run.
  std::string section;
  // The collective the run measured (nccl-tests: its program); all_reduce for the other formats.
  Collective collective = Collective::all_reduce;
  std::vector<MeasuredPoint> points;
  // ringsim results: the topology file they were simulated on, as a path from the current directory;
  // empty when the file does not say (measurements, merged sweeps) or for other formats.
  std::string topology;

  // "nccl-tests: 12 points, 8 B to 128 MiB, 8 ranks on 3 hosts, NCCL 2.18.3; time = out-of-place time"
  std::string summary() const;
};

}  // namespace ringsim
