// A run's scratch space: the user's --out directory (kept), or a temporary one removed on every exit path.
#pragma once

#include "../common/interrupt_cleanup.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ringsim {

class WorkDirectory {
 public:
  explicit WorkDirectory(const std::optional<std::string>& keep_in);
  ~WorkDirectory();
  WorkDirectory(const WorkDirectory&) = delete;
  WorkDirectory& operator=(const WorkDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
  std::optional<RemovedOnInterrupt> removed_on_interrupt_;  // a temporary one only
};

}  // namespace ringsim
