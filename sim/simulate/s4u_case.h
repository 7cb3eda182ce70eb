// One simulated case on the S4U or the maestro engine: one ringsim-rank-s4u or ringsim-rank-maestro
// process (docs/engines.md) instead of smpirun, with the same platform, hostfile, model settings and
// rank options.
#pragma once

#include "smpi_case.h"

namespace ringsim {

// ringsim-rank-s4u beside ringsim, or $RINGSIM_RANK_S4U; throws std::runtime_error when missing.
std::filesystem::path find_s4u_program();

// ringsim-rank-maestro beside ringsim, or $RINGSIM_RANK_MAESTRO; throws std::runtime_error when missing.
std::filesystem::path find_maestro_program();

// Writes the case's hostfile into CASE_DIR and returns the command of PROGRAM (either engine's; its
// log is SPEC.engine + ".log").
PreparedCase prepare_s4u_case(const Scenario& scenario, const std::filesystem::path& platform_file,
                              const SimulationCase& spec,
                              const std::filesystem::path& case_dir, const std::filesystem::path& program,
                              bool record_events);

}  // namespace ringsim
