// `ringsim measure`'s launch: where each topology node runs (the user's hosts, or the namespaces of an
// emulated cluster) and the programs mpirun needs, checked before the cluster is made or a case runs.
#pragma once

#include "../model/scenario.h"
#include "../platform/cluster_layout.h"
#include "mpi_case.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct MeasureOptions {
  bool emulated = false;                  // else hostfile is set
  std::optional<std::string> hostfile;
  std::vector<std::string> mpirun_args;   // after "--", for hostfile runs
  bool beyond_emulation_limit = false;
  double rank_cpu = 0;                    // emulated: > 0 caps each rank at this share of a core
  bool quiet = false;
  std::optional<std::string> out_dir;
  std::string command_line;               // "ringsim measure ...", recorded in the results' source
};

struct CheckedLaunch {
  MpiLaunch launch;                   // without the cluster, which is made only after every check
  std::vector<NodeSpec> emulated_nodes;  // emulated: the topology nodes the placements use
};

// The user's files first (hostfile), then what this machine must provide (mpirun, the rank program;
// emulated: root, ip, tc, unshare, NICs within the emulation limit). Throws InputError.
CheckedLaunch check_measure_launch(const Scenario& scenario, const Platform& platform, const MeasureOptions& options);

// ARGV as one line a shell would split back into ARGV (quoted where needed).
std::string shell_command_text(const std::vector<std::string>& argv);

}  // namespace ringsim
