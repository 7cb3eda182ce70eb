#include "smpi_case.h"

#include "../cases/program_paths.h"
#include "../platform/platform_library.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

namespace ringsim {

namespace {

// SMPI speed levers (docs/engines.md, "Speed: SMPI's levers"): on by default only where they cut host work and leave every
// simulated time unchanged. (smpi/send-is-detached-thresh:0 changes simulated times: not here.)

// A scenario may turn measured computation back on through its raw "simgrid" settings.
bool simulates_computation(const ModelSettings& model) {
  for (const auto& [key, value] : model.simgrid)
    if (key == "smpi/simulate-computation") return !(value == "no" || value == "0" || value == "false" || value == "off");
  return false;
}

// The thread CPU-time clock answered from CLOCK_MONOTONIC; "" when not built or switched off
// (RINGSIM_NO_CLOCK_REDIRECT=1, which the test comparing simulated times with and without it uses).
std::string thread_clock_preload(const ModelSettings& model) {
  const auto library = program_directory() / "ringsim-thread-clock.so";
  if (std::getenv("RINGSIM_NO_CLOCK_REDIRECT") != nullptr || simulates_computation(model) ||
      !std::filesystem::is_regular_file(library))
    return "";
  const char* others = std::getenv("LD_PRELOAD");
  const auto preload = library.string() + (others != nullptr && *others != '\0' ? std::string(":") + others : "");
  // smpirun splits its -wrapper on white space.
  return preload.find_first_of(" \t\n") == std::string::npos ? preload : "";
}

}  // namespace

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
  tools.platform_library = program_directory() / kPlatformLibraryName;
  return tools;
}

PreparedCase prepare_case_files(const std::filesystem::path& case_dir, const std::string& log_name, bool record_events) {
  PreparedCase prepared;
  prepared.report = case_dir / "report.json";
  prepared.progress = case_dir / "progress.json";
  prepared.command.log = case_dir / log_name;
  if (record_events) prepared.events = case_dir / "events.jsonl";
  std::filesystem::remove(prepared.report);
  std::filesystem::remove(prepared.progress);
  return prepared;
}

SimgridPlatformArgument simgrid_platform_argument(const std::filesystem::path& platform_file,
                                                  const std::filesystem::path& platform_library) {
  if (platform_file.extension() != ".json") return {std::filesystem::absolute(platform_file), {}};
  return {std::filesystem::absolute(platform_library),
          {fmt::format("{}={}", kPlatformPlanVariable, std::filesystem::absolute(platform_file).string())}};
}

// From this size on, buffers whose values mean nothing are shared the "local" way. SMPI's default
// ("global") reserves each such buffer with one private mapping the kernel counts against memory
// (refused beyond RAM + swap under the default vm.overcommit_memory=0: "Failed to allocate 25600MiB",
// a 25 GiB size on a 24 GB machine), then maps a 64 MiB block over it again and again with its page
// tables filled (2 ranks x 4 GiB: 4 s and 25 GB of mapped pages). "local" maps one sparse shared file
// per buffer, left untouched: 2 ranks x 64 GiB in 0.3 s and 35 MB. Below it the default stays (its
// folded block also serves reads of small messages without growing).
constexpr std::uint64_t kLocalSharedMallocFrom = 1ULL << 30;

PreparedCase prepare_smpi_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                               const SimulationCase& spec,
                               const std::filesystem::path& case_dir, const SmpiTools& tools, bool record_events) {
  std::filesystem::create_directories(case_dir);
  const auto hostfile = write_hostfile(case_dir, spec.ring.hosts);

  PreparedCase prepared = prepare_case_files(case_dir, "smpi.log", record_events);
  const SimgridPlatformArgument platform = simgrid_platform_argument(platform_file, tools.platform_library);
  prepared.command.environment = platform.environment;
  auto& argv = prepared.command.argv;
  argv = {tools.smpirun.string(),
          "-np",
          std::to_string(spec.ring.hosts.size()),
          "-platform",
          platform.file.string(),
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
  if (std::any_of(scenario.sizes.begin(), scenario.sizes.end(), [](std::uint64_t bytes) { return bytes >= kLocalSharedMallocFrom; }))
    argv.push_back("--cfg=smpi/shared-malloc:local");
  // Through smpirun's wrapper, so the preload reaches smpimain only.
  if (const auto preload = thread_clock_preload(scenario.model); !preload.empty())
    argv.insert(argv.begin() + 1, {"-wrapper", "env LD_PRELOAD=" + preload});
  for (const auto& arg : scenario.model.cfg_arguments()) argv.push_back(arg);
  argv.push_back(tools.rank_library.string());
  for (auto& arg : rank_program_arguments(scenario, spec, prepared.report, prepared.events, prepared.progress))
    argv.push_back(arg);
  return prepared;
}

}  // namespace ringsim
