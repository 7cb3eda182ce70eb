// The one exception type for bad input: its message is the complete one-line diagnostic
// ("FILE: /json/path: what is wrong; what is expected"), printed as is, exit status 2.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace ringsim {

class InputError : public std::runtime_error {
 public:
  // Control characters of the input quoted in MESSAGE (a JSON key or value holding "\n") are
  // written as escapes, so that the diagnostic stays one line whatever the input holds.
  explicit InputError(const std::string& message) : std::runtime_error(one_line(message)) {}

 private:
  static std::string one_line(const std::string& message) {
    std::string line;
    line.reserve(message.size());
    for (const char c : message) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '\n') line += "\\n";
      else if (c == '\r') line += "\\r";
      else if (c == '\t') line += "\\t";
      else if (byte < 0x20 || byte == 0x7f) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
        line += escaped;
      } else line += c;
    }
    return line;
  }
};

}  // namespace ringsim
