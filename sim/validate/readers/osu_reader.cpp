// OSU Micro-Benchmarks' osu_allreduce output: "# Size  Avg Latency(us)" and, with -f, the extended
// columns "Min Latency(us)  Max Latency(us)  Iterations". Column names contain single spaces, so the
// header is split on runs of two or more. Time = Max Latency (slowest rank) when printed, else Avg.
#include "../text_table.h"
#include "../trace_readers.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

std::vector<std::string> osu_header_columns(std::string_view line) {
  std::vector<std::string> columns;
  if (line.empty() || line.front() != '#') return columns;
  line.remove_prefix(1);
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t start = i;
    // A column name ends at two spaces or a tab.
    while (i < line.size() && line[i] != '\t' && !(line[i] == ' ' && i + 1 < line.size() && line[i + 1] == ' ')) ++i;
    std::string_view name = line.substr(start, i - start);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) columns.emplace_back(name);
  }
  if (columns.empty() || columns.front() != "Size" ||
      std::find(columns.begin(), columns.end(), "Avg Latency(us)") == columns.end())
    columns.clear();
  return columns;
}

}  // namespace

bool detect_osu(std::string_view text) {
  for (const auto& line : split_lines(text.substr(0, 4000))) {
    if (line.text.find("# OSU MPI") == 0 && line.text.find("Allreduce") != std::string_view::npos) return true;
    if (!osu_header_columns(line.text).empty()) return true;
  }
  return false;
}

MeasuredTrace read_osu(std::string_view text, const std::string& file) {
  MeasuredTrace trace;
  trace.format = "osu";
  std::vector<std::string> columns;
  std::size_t time_column = 1;
  int header_line = 0;
  for (const auto& [number, line] : split_lines(text)) {
    if (!line.empty() && line.front() == '#') {
      if (auto found = osu_header_columns(line); !found.empty()) {
        columns = found, header_line = number;
        auto max = std::find(columns.begin(), columns.end(), "Max Latency(us)");
        auto avg = std::find(columns.begin(), columns.end(), "Avg Latency(us)");
        time_column = static_cast<std::size_t>((max != columns.end() ? max : avg) - columns.begin());
        trace.time_meaning = max != columns.end() ? "Max Latency (slowest rank's average)" : "Avg Latency (average over ranks)";
      }
      continue;
    }
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (columns.empty()) continue;  // banner text before the table
    if (words.size() != columns.size() || !parse_count(words.front()))
      throw_trace_error(file, number, fmt::format("expected {} columns of numbers as in the header (line {}), found \"{}\"",
                                                  columns.size(), header_line, line));
    const auto latency = parse_number(words[time_column]);
    if (!latency || *latency <= 0) throw_trace_error(file, number, fmt::format("\"{}\" is not a latency in microseconds", words[time_column]));
    trace.points.push_back({*parse_count(words.front()), *latency * 1e-6, "", "", std::nullopt, number});
  }
  if (columns.empty()) throw_trace_error(file, 1, "no \"# Size  Avg Latency(us)\" header: not osu_allreduce output");
  if (trace.points.empty()) throw_trace_error(file, header_line, "the OSU table has no rows");
  return trace;
}

}  // namespace ringsim
