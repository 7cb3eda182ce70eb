// Scratch files for tests that read input from disk; removed with the object.
#pragma once

#include <filesystem>
#include <fstream>
#include <stdlib.h>
#include <string>

namespace ringsim::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ringsim-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::filesystem::path write(const std::string& name, const std::string& content) const {
    auto file = path_ / name;
    std::ofstream(file) << content;
    return file;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The message of the exception EXPR throws, or "" when it throws none.
#define RINGSIM_ERROR_OF(expr)        \
  [&]() -> std::string {              \
    try {                             \
      (void)(expr);                   \
    } catch (const std::exception& e) { \
      return e.what();                \
    }                                 \
    return "";                        \
  }()

}  // namespace ringsim::testing
