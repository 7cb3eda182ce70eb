// A ringsim results file given to `validate` or `calibrate` as the measured trace holds its own
// topology and placements. Compared with a scenario simulated on another topology, or on other
// placements than the scenario lists, its rows would be judged against the wrong cases.
#pragma once

#include "../model/scenario.h"
#include "measured_trace.h"

#include <string>

namespace ringsim {

// Throws InputError (one line naming both) when TRACE, read from TRACE_FILE, is ringsim results of
// another topology than SCENARIO's, or of placements the scenario does not list (a scenario listing
// none takes the file's).
void check_results_agree_with_scenario(const MeasuredTrace& trace, const std::string& trace_file, const Scenario& scenario);

}  // namespace ringsim
