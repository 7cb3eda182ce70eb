// `measure`'s launch without the binary or a cluster: the hostfile's first hosts become the topology
// nodes the placements use, and the recorded command line quotes what a shell would split.
#include "../../sim/measure/measure_launch.h"
#include "temp_files.h"

#include <cstdlib>
#include <doctest/doctest.h>
#include <filesystem>

using namespace ringsim;

TEST_CASE("check_measure_launch gives the placements' nodes the hostfile's first hosts") {
  const testing::TempDir dir;
  // A stand-in mpirun on PATH and rank program: the check only looks for them.
  const auto mpirun = dir.write("mpirun", "#!/bin/sh\n");
  std::filesystem::permissions(mpirun, std::filesystem::perms::owner_all);
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", dir.path().c_str(), 1);
  ::setenv("RINGSIM_RANK_MPI", mpirun.c_str(), 1);

  const Scenario scenario = load_scenario(RINGSIM_SOURCE_DIR "/scenarios/locality-4-2-2-vs-4-3-1.json");
  const Platform platform = load_platform(scenario.topology);
  MeasureOptions options;
  options.hostfile = dir.write("hosts", "h0\nh1\nh2\nh3\nh4\n").string();
  options.mpirun_args = {"--mca", "btl", "tcp,self"};
  const CheckedLaunch checked = check_measure_launch(scenario, platform, options);
  ::setenv("PATH", old_path.c_str(), 1);
  ::unsetenv("RINGSIM_RANK_MPI");

  // 4-2-2 and 4-3-1 use three nodes: the first three hosts, no emulated nodes.
  CHECK(checked.launch.node_hosts == std::vector<std::string>{"h0", "h1", "h2"});
  CHECK(checked.emulated_nodes.empty());
  CHECK(checked.launch.mpirun == mpirun);
  CHECK(checked.launch.extra_mpirun_args.size() == 3);
}

TEST_CASE("shell_command_text quotes only the arguments a shell would split or expand") {
  CHECK(shell_command_text({"measure", "a b.json", "--json", "out.json", "$HOME", ""}) ==
        "measure 'a b.json' --json out.json '$HOME' ''");
}
