// Helpers for the column-oriented text formats (nccl-tests, OSU, IMB).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct TextLine {
  int number;  // 1-based
  std::string_view text;
};

std::vector<TextLine> split_lines(std::string_view text);
std::vector<std::string_view> split_words(std::string_view line);
std::optional<double> parse_number(std::string_view word);           // finite decimal or exponent form
std::optional<std::uint64_t> parse_count(std::string_view word);     // non-negative integer

// "FILE:LINE: MESSAGE" as an InputError.
[[noreturn]] void throw_trace_error(const std::string& file, int line, std::string_view message);

}  // namespace ringsim
