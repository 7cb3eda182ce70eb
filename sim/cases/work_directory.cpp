#include "work_directory.h"

#include <stdexcept>
#include <stdlib.h>

namespace ringsim {

WorkDirectory::WorkDirectory(const std::optional<std::string>& keep_in) {
  if (keep_in) {
    path_ = *keep_in;
    std::filesystem::create_directories(path_);
    keep_ = true;
  } else {
    std::string pattern = (std::filesystem::temp_directory_path() / "ringsim-XXXXXX").string();
    const InterruptsHeld held;
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    removed_on_interrupt_.emplace(pattern);
    path_ = pattern;
  }
}

WorkDirectory::~WorkDirectory() {
  std::error_code ignored;
  if (!keep_) std::filesystem::remove_all(path_, ignored);
}

}  // namespace ringsim
