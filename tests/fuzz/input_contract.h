// The contract every fuzz target checks (docs/testing.md, "Bad input"): a reader given any bytes either returns a
// typed value or throws InputError whose one-line message starts with the file's name and a place
// after it ("FILE:LINE: ..." or "FILE: /json/path: ..."). Anything else (a crash, a sanitizer report,
// another exception, an error without a location) is a finding: the target aborts, libFuzzer saves it.
#pragma once

#include "../../sim/common/input_error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace ringsim::fuzz {

// The file a target's input is written to when the reader takes a path: one per process, in a
// directory of its own, so parallel fuzzers (-jobs) do not share it.
inline const std::filesystem::path& input_file(std::string_view extension) {
  static const std::filesystem::path file = [extension] {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("ringsim-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / ("input" + std::string(extension));
  }();
  return file;
}

inline void write_input(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

[[noreturn]] inline void finding(std::string_view what, std::string_view message) {
  std::fprintf(stderr, "contract broken: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(message.size()), message.data());
  std::abort();
}

// Runs READ (which parses the input named FILE); checks how it ends.
template <typename Read>
void expect_value_or_located_error(const std::string& file, Read read) {
  try {
    read();
  } catch (const InputError& error) {
    const std::string_view message = error.what();
    if (message.substr(0, file.size()) != file || message.size() <= file.size() + 2 || message[file.size()] != ':')
      finding("an InputError that does not start with \"FILE:\"", message);
    // The place: a line number ("FILE:12: ...") or a JSON path ("FILE: /sizes/3: ...", "/" the root).
    const std::string_view place = message.substr(file.size() + 1);
    const bool line = place[0] >= '0' && place[0] <= '9';
    const bool json_path = place.size() > 1 && place[0] == ' ' && place[1] == '/';
    if (!line && !json_path) finding("an InputError without a line or JSON path", message);
    if (message.find('\n') != std::string_view::npos) finding("an InputError of more than one line", message);
  } catch (const std::exception& error) {
    finding("an exception other than InputError", error.what());
  }
}

}  // namespace ringsim::fuzz
