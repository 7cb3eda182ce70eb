// What `ringsim run` does with a file that is not a scenario it can simulate as it stands: a
// validation scenario (no placements: a trace's header says where its ranks ran) or a sweep file
// (placement generators, model axes). Each gets one line naming the command that runs it.
#pragma once

#include "../model/scenario.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ringsim {

// The trace a validation scenario's question names ("... --measured validate/traces/x.txt: ..."),
// as a path from the current directory when it can be found beside the scenario's folders; nullopt
// when the question names none.
std::optional<std::string> trace_named_by(const Scenario& scenario);

// The line for a scenario without placements: "FILE: /placements: ...; run: ringsim validate ...".
std::string validation_scenario_line(const Scenario& scenario);

// The line for FILE when it is a sweep file that `run` cannot read as a scenario; nullopt when it is
// no sweep file either (the scenario's own error then stands).
std::optional<std::string> sweep_file_line(const std::filesystem::path& file);

}  // namespace ringsim
