#include "mpi_case.h"

#include <unistd.h>

namespace ringsim {

PreparedMpiCase prepare_mpi_case(const Scenario& scenario, const MpiLaunch& launch, const SimulationCase& spec,
                                 const std::filesystem::path& case_dir) {
  std::filesystem::create_directories(case_dir);
  std::vector<std::string> hosts;
  for (int node : spec.ring.nodes) hosts.push_back(launch.node_hosts.at(node));
  const auto hostfile = write_hostfile(case_dir, hosts);

  PreparedMpiCase prepared;
  prepared.report = case_dir / "report.json";
  prepared.progress = case_dir / "progress.json";
  prepared.command.log = case_dir / "mpirun.log";
  auto& argv = prepared.command.argv;
  if (launch.cluster != nullptr) argv = launch.cluster->exec_prefix(launch.node_hosts.at(0));
  if (::geteuid() == 0) argv.insert(argv.end(), {"env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"});
  argv.push_back(launch.mpirun.string());
  if (launch.cluster != nullptr) {
    // The recipe of smpi-facts.md: rsh into namespaces, direct routing, TCP on the emulated subnet only.
    argv.insert(argv.end(), {"--mca", "plm_rsh_agent", launch.rsh_agent.string(), "--mca", "plm_rsh_no_tree_spawn", "1",
                             "--mca", "routed", "direct", "--mca", "btl", "self,vader,tcp", "--mca",
                             "btl_tcp_if_include", kEmulatedSubnet, "--mca", "oob_tcp_if_include", kEmulatedSubnet,
                             "--bind-to", "none",
                             // More ranks than cores: busy-polling ranks otherwise hold the CPU a peer
                             // needs for a timeslice (3 ms per step for 3 ranks on 2 cores, 4 bytes).
                             "--mca", "mpi_yield_when_idle", "1"});
  }
  // seq mapping: line r of the hostfile is rank r's host, which gives block and cyclic orders exactly.
  // Open MPI's session directory goes into the run's own directory, which an interrupted run removes:
  // in TMPDIR, an mpirun killed before its cleanup left it behind. Absolute: Open MPI reads a relative
  // base (--out o) from the root ("/o/ompi.HOST.0: Impossible to open the file").
  argv.insert(argv.end(), {"--mca", "orte_tmpdir_base", std::filesystem::absolute(case_dir).parent_path().string(), "--mca", "rmaps", "seq",
                           "--hostfile", hostfile.string(), "-np", std::to_string(spec.placement.total_ranks())});
  argv.insert(argv.end(), launch.extra_mpirun_args.begin(), launch.extra_mpirun_args.end());
  if (launch.cluster != nullptr && launch.rank_cpu > 0)
    for (auto& arg : launch.cluster->cpu_cap_prefix(launch.rank_cpu)) argv.push_back(arg);
  argv.push_back(launch.rank_program.string());
  for (auto& arg : rank_program_arguments(scenario, spec, prepared.report, {}, prepared.progress))
    argv.push_back(arg);
  std::filesystem::remove(prepared.report);
  std::filesystem::remove(prepared.progress);
  return prepared;
}

}  // namespace ringsim
