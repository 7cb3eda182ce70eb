// One simulated case = one smpirun of the rank program over every size of the scenario.
#pragma once

#include "../cases/case_report.h"
#include "../cases/process_pool.h"
#include "../model/scenario.h"

#include <filesystem>

namespace ringsim {

struct SmpiTools {
  std::filesystem::path smpirun;       // $RINGSIM_SMPIRUN, else "smpirun" from PATH
  std::filesystem::path rank_library;  // $RINGSIM_RANK_LIBRARY, else ringsim-rank-smpi.so beside ringsim
  std::filesystem::path platform_library;  // libringsim-platform.so beside ringsim (platform_library.h)
};

// Throws std::runtime_error saying how to get what is missing.
SmpiTools find_smpi_tools();

struct PreparedCase {
  ChildCommand command;
  std::filesystem::path report;  // rank 0's JSON report
  std::filesystem::path events;  // per-step events (JSON lines), when recorded
  std::filesystem::path progress;  // rank 0's progress while it runs
};

// A case's files in CASE_DIR, whatever runs it: rank 0's report and progress (stale ones removed), the
// log named LOG_NAME and, when recorded, the events.
PreparedCase prepare_case_files(const std::filesystem::path& case_dir, const std::string& log_name, bool record_events);

// What SimGrid is given as its platform: the XML as written, or for a platform plan (".json",
// plan_file.h) the platform library, which finds the plan through the environment it adds.
struct SimgridPlatformArgument {
  std::filesystem::path file;
  std::vector<std::string> environment;
};
SimgridPlatformArgument simgrid_platform_argument(const std::filesystem::path& platform_file,
                                                  const std::filesystem::path& platform_library);

// Writes the case's hostfile into CASE_DIR and returns the smpirun command. PLATFORM_FILE is SimGrid
// XML, or a platform plan (".json", plan_file.h) that SimGrid loads through the platform library.
PreparedCase prepare_smpi_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                               const SimulationCase& spec,
                               const std::filesystem::path& case_dir, const SmpiTools& tools, bool record_events);

}  // namespace ringsim
