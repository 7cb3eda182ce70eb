#include "smpi_case.h"

#include "program_paths.h"

#include <cstdlib>
#include <fmt/format.h>

namespace ringsim {

SmpiTools find_smpi_tools() {
  SmpiTools tools;
  const char* smpirun = std::getenv("RINGSIM_SMPIRUN");
  tools.smpirun = smpirun != nullptr ? smpirun : "smpirun";
  if (smpirun == nullptr && !find_on_path("smpirun"))
    throw std::runtime_error("smpirun not found on PATH: install SimGrid (apt-get install libsimgrid-dev) "
                             "or run tools/demo.sh, or set RINGSIM_SMPIRUN");
  const char* library = std::getenv("RINGSIM_RANK_LIBRARY");
  tools.rank_library = library != nullptr ? std::filesystem::path(library) : program_directory() / "ringsim-rank-smpi.so";
  if (!std::filesystem::is_regular_file(tools.rank_library))
    throw std::runtime_error(fmt::format("rank program {} not found: build it (cmake --build build) "
                                         "or set RINGSIM_RANK_LIBRARY",
                                         tools.rank_library.string()));
  return tools;
}

PreparedCase prepare_smpi_case(const Scenario& scenario, const std::filesystem::path& platform_xml,
                               const ClusterLayout& layout, const SimulationCase& spec,
                               const std::filesystem::path& case_dir, const SmpiTools& tools, bool record_events) {
  std::filesystem::create_directories(case_dir);
  const auto hosts = hosts_of_ranks(spec.placement, layout);
  const auto hostfile = write_hostfile(case_dir, hosts);

  PreparedCase prepared;
  prepared.report = case_dir / "report.json";
  prepared.progress = case_dir / "progress.json";
  prepared.command.log = case_dir / "smpi.log";
  auto& argv = prepared.command.argv;
  argv = {tools.smpirun.string(),
          "-np",
          std::to_string(hosts.size()),
          "-platform",
          std::filesystem::absolute(platform_xml).string(),
          "-hostfile",
          hostfile.string(),
          // The rank code keeps no mutable globals, so one copy of the library serves every rank.
          "-no-privatize",
          // Simulated time comes from the platform only: communication, plus smpi_execute_flops()
          // for the reduction. Measured host CPU bursts would make results depend on this machine.
          "--cfg=smpi/simulate-computation:no",
          // Shared buffers are mapped block by block; 1 MiB blocks exhaust vm.max_map_count
          // (65530) at 512 ranks x 3 buffers x 64 MiB. 64 MiB blocks need 64x fewer mappings.
          "--cfg=smpi/shared-malloc-blocksize:67108864",
          "--log=root.thresh:warning"};
  for (const auto& arg : scenario.model.cfg_arguments()) argv.push_back(arg);
  if (record_events) prepared.events = case_dir / "events.jsonl";
  argv.push_back(tools.rank_library.string());
  for (auto& arg : rank_program_arguments(scenario, spec, prepared.report, prepared.events, prepared.progress))
    argv.push_back(arg);
  std::filesystem::remove(prepared.report);
  std::filesystem::remove(prepared.progress);
  return prepared;
}

}  // namespace ringsim
