// nccl-tests' all_reduce_perf output. The table header names the columns, so the old layout
// (size count type redop time algbw busbw error ...) and the new one (with root and #wrong) read
// alike; NCCL INFO/WARN lines and other chatter between rows are skipped. Time = out-of-place time.
// The header before the table says where each rank ran and which NCCL (nccl_tests_header.h).
#include "../text_table.h"
#include "../trace_readers.h"
#include "nccl_tests_header.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

// Column names of a "#  size  count  type ..." header, or empty when LINE is not one.
std::vector<std::string_view> header_columns(std::string_view line) {
  if (line.empty() || line.front() != '#') return {};
  auto words = split_words(line.substr(1));
  auto has = [&](std::string_view w) { return std::find(words.begin(), words.end(), w) != words.end(); };
  if (words.empty() || words.front() != "size" || !has("count") || !has("time") || !has("busbw")) return {};
  return words;
}

}  // namespace

bool detect_nccl_tests(std::string_view text) {
  for (const auto& line : split_lines(text.substr(0, 20000)))
    if (!header_columns(line.text).empty()) return true;
  return false;
}

MeasuredTrace read_nccl_tests(std::string_view text, const std::string& file) {
  MeasuredTrace trace;
  trace.format = "nccl-tests";
  trace.time_meaning = "out-of-place time as nccl-tests reports it (average over its iterations)";
  std::vector<std::string_view> columns;
  int header_line = 0;
  const auto lines = split_lines(text);
  trace.run = read_nccl_tests_header(lines, file);  // first: its lines come before the table's
  for (const auto& [number, line] : lines) {
    if (!line.empty() && line.front() == '#') {
      if (auto found = header_columns(line); !found.empty() && columns.empty()) columns = found, header_line = number;
      continue;
    }
    const auto words = split_words(line);
    if (words.empty() || !parse_count(words.front())) continue;  // NCCL INFO lines, warnings, blank lines
    if (columns.empty()) throw_trace_error(file, number, "a result row before the \"# size count type ...\" header");
    if (words.size() != columns.size())
      throw_trace_error(file, number,
                        fmt::format("{} columns where the header (line {}) has {}: truncated or not nccl-tests output",
                                    words.size(), header_line, columns.size()));
    const auto time_column = std::find(columns.begin(), columns.end(), "time") - columns.begin();
    const auto time_us = parse_number(words[static_cast<std::size_t>(time_column)]);
    if (!time_us || *time_us <= 0)
      throw_trace_error(file, number, fmt::format("\"{}\" is not a time in microseconds", words[static_cast<std::size_t>(time_column)]));
    trace.points.push_back({*parse_count(words.front()), *time_us * 1e-6, "", "", std::nullopt, number});
  }
  if (columns.empty())
    throw_trace_error(file, 1, "no \"# size count type ... time algbw busbw\" header: not nccl-tests output");
  if (trace.points.empty()) throw_trace_error(file, header_line, "the nccl-tests table has no rows");
  if (trace.run && !trace.run->ranks.empty()) {
    trace.ranks = static_cast<int>(trace.run->ranks.size());
    for (auto& point : trace.points) point.ranks = trace.ranks;
  }
  return trace;
}

}  // namespace ringsim
