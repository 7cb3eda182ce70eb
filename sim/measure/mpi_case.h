// One measured case = one mpirun of the Open MPI rank program over every size of the scenario,
// on the emulated cluster or on the user's hosts. Rank r runs on the host of its node (seq mapping).
#pragma once

#include "../cases/case_report.h"
#include "../cases/process_pool.h"
#include "emulated_cluster.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

struct MpiLaunch {
  std::filesystem::path mpirun;
  std::filesystem::path rank_program;             // ringsim-rank-mpi; the same path on every host
  std::vector<std::string> node_hosts;            // host name of each topology node, by node index
  std::vector<std::string> extra_mpirun_args;     // passed through after ringsim's own
  const EmulatedCluster* cluster = nullptr;       // set: run inside the emulated cluster
  std::filesystem::path rsh_agent;                // emulated: the agent that enters a node's namespace
  double rank_cpu = 0;                            // emulated: > 0 caps each rank at this share of a core
};

struct PreparedMpiCase {
  ChildCommand command;
  std::filesystem::path report;
  std::filesystem::path progress;  // rank 0's progress while it runs
};

// Writes the case's hostfile (one line per rank) into CASE_DIR and returns the mpirun command.
PreparedMpiCase prepare_mpi_case(const Scenario& scenario, const MpiLaunch& launch, const SimulationCase& spec,
                                 const std::filesystem::path& case_dir);

// The subnet the emulated cluster uses (tools/emulated-cluster.sh).
inline constexpr const char* kEmulatedSubnet = "198.18.0.0/24";

}  // namespace ringsim
