// Where ringsim finds its companions: the rank programs beside the `ringsim` binary, scripts in
// the source tree's tools/, and external programs on PATH.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ringsim {

std::filesystem::path program_directory();  // directory of the running executable
std::optional<std::filesystem::path> find_on_path(const std::string& program);
std::filesystem::path tools_directory();  // $RINGSIM_TOOLS_DIR, else the source tree's tools/

}  // namespace ringsim
