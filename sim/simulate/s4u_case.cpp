#include "s4u_case.h"

#include "../cases/program_paths.h"
#include "../platform/platform_library.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

namespace ringsim {

namespace {

// NAME beside ringsim, or the file $VARIABLE names.
std::filesystem::path find_engine_program(const char* variable, const std::string& name, const std::string& engine) {
  const char* program = std::getenv(variable);
  std::filesystem::path path = program != nullptr ? std::filesystem::path(program) : program_directory() / name;
  if (!std::filesystem::is_regular_file(path)) {
    std::string target = name;
    std::replace(target.begin(), target.end(), '-', '_');
    throw std::runtime_error(fmt::format("{} engine {} not found: build it (cmake --build build --target {}) or set {}",
                                         engine, path.string(), target, variable));
  }
  return path;
}

// SimGrid allocates and frees a few small objects per message; glibc keeps only 7 freed blocks per
// size for a thread to reuse at once, so most of them went through the slow path (_int_malloc: 8-10%
// of a 1024-rank profile). A deeper cache took 12-20% off the CPU time of a 1024-rank ring.
// Thousands of ranks touch a heap of hundreds of MB at scattered places every step: transparent huge
// pages for it (hugetlb=1, where the kernel offers them on madvise) took 13% off the CPU time of a
// 2048-rank maestro ring (29.2 and 30.0 s -> 25.3 and 26.2 s, runs alternated).
std::string malloc_tunables() {
  constexpr const char* kMallocTunables = "glibc.malloc.tcache_count=65000:glibc.malloc.hugetlb=1";
  const char* user = std::getenv("GLIBC_TUNABLES");
  return user != nullptr && *user != '\0' ? fmt::format("GLIBC_TUNABLES={}:{}", user, kMallocTunables)
                                          : fmt::format("GLIBC_TUNABLES={}", kMallocTunables);
}

}  // namespace

std::filesystem::path find_s4u_program() { return find_engine_program("RINGSIM_RANK_S4U", "ringsim-rank-s4u", "S4U"); }
std::filesystem::path find_maestro_program() {
  return find_engine_program("RINGSIM_RANK_MAESTRO", "ringsim-rank-maestro", "maestro");
}

PreparedCase prepare_s4u_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                              const SimulationCase& spec,
                              const std::filesystem::path& case_dir, const std::filesystem::path& program,
                              bool record_events) {
  std::filesystem::create_directories(case_dir);
  const auto hostfile = write_hostfile(case_dir, spec.ring.hosts);

  PreparedCase prepared = prepare_case_files(case_dir, spec.engine + ".log", record_events);
  auto& argv = prepared.command.argv;
  argv = {program.string(), "--log=root.thresh:warning"};
  // The same network model, factors and raw settings smpirun gets (SimGrid reads smpi/bw-factor,
  // smpi/lat-factor and smpi/send-is-detached-thresh outside SMPI too).
  for (const auto& arg : scenario.model.cfg_arguments()) argv.push_back(arg);
  const SimgridPlatformArgument platform =
      simgrid_platform_argument(platform_file, program_directory() / kPlatformLibraryName);
  prepared.command.environment = platform.environment;
  prepared.command.environment.push_back(malloc_tunables());
  argv.push_back(platform.file.string());
  argv.push_back(hostfile.string());
  for (auto& arg : rank_program_arguments(scenario, spec, prepared.report, prepared.events, prepared.progress))
    argv.push_back(arg);
  return prepared;
}

}  // namespace ringsim
