// Intel MPI Benchmarks' IMB-MPI1 output: the "# Benchmarking Allreduce" sections, one per process
// count ("# #processes = 8"), each a table "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]".
// Other benchmarks' sections are skipped. Time = t_max, the slowest process.
#include "../text_table.h"
#include "../trace_readers.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {

bool detect_imb(std::string_view text) {
  return text.find("# Benchmarking Allreduce") != std::string_view::npos ||
         (text.find("Intel(R) MPI Benchmarks") != std::string_view::npos && text.find("#bytes") != std::string_view::npos);
}

MeasuredTrace read_imb(std::string_view text, const std::string& file) {
  MeasuredTrace trace;
  trace.format = "imb";
  trace.time_meaning = "t_max (slowest process), averaged over IMB's repetitions";
  bool in_allreduce = false;
  std::optional<int> processes;
  std::vector<std::string_view> columns;
  std::set<int> process_counts;
  for (const auto& [number, line] : split_lines(text)) {
    const auto words = split_words(line);
    if (words.empty()) {
      columns.clear();  // a table ends at a blank line
      continue;
    }
    if (words.size() >= 3 && words[0] == "#" && words[1] == "Benchmarking") {
      in_allreduce = words[2] == "Allreduce";
      processes.reset();
      columns.clear();
      continue;
    }
    if (!in_allreduce) continue;
    if (words.size() >= 4 && words[0] == "#" && words[1] == "#processes" && words[2] == "=") {
      auto count = parse_count(words[3]);
      if (!count || *count == 0) throw_trace_error(file, number, "\"#processes =\" is not followed by a process count");
      processes = static_cast<int>(*count);
      continue;
    }
    if (words.front() == "#bytes") {
      columns = words;
      continue;
    }
    if (words.front().front() == '#' || columns.empty()) continue;
    if (words.size() != columns.size())
      throw_trace_error(file, number, fmt::format("{} columns where the #bytes header has {}: truncated?", words.size(), columns.size()));
    const auto t_max = std::find(columns.begin(), columns.end(), "t_max[usec]");
    if (t_max == columns.end()) throw_trace_error(file, number, "the Allreduce table has no t_max[usec] column");
    const auto bytes = parse_count(words.front());
    const auto time_us = parse_number(words[static_cast<std::size_t>(t_max - columns.begin())]);
    if (!bytes || !time_us || *time_us < 0) throw_trace_error(file, number, fmt::format("not an IMB result row: \"{}\"", line));
    if (!processes) throw_trace_error(file, number, "an Allreduce row before \"# #processes = N\"");
    process_counts.insert(*processes);
    trace.points.push_back({*bytes, *time_us * 1e-6, "", "", processes, number});
  }
  if (trace.points.empty()) throw_trace_error(file, 1, "no \"# Benchmarking Allreduce\" table with rows: not IMB-MPI1 Allreduce output");
  if (process_counts.size() == 1) trace.ranks = *process_counts.begin();
  return trace;
}

}  // namespace ringsim
