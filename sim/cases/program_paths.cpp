#include "program_paths.h"

#include <cstdlib>
#include <string_view>
#include <unistd.h>

namespace ringsim {

std::filesystem::path program_directory() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : exe.parent_path();
}

std::optional<std::filesystem::path> find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string_view dirs = path;
  for (std::size_t from = 0; from <= dirs.size();) {
    std::size_t colon = std::min(dirs.find(':', from), dirs.size());
    auto candidate = std::filesystem::path(dirs.substr(from, colon - from)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    from = colon + 1;
  }
  return std::nullopt;
}

std::filesystem::path tools_directory() {
  if (const char* dir = std::getenv("RINGSIM_TOOLS_DIR")) return dir;
  return RINGSIM_SOURCE_TOOLS_DIR;
}

}  // namespace ringsim
