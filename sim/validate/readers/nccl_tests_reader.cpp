// nccl-tests' output as users hold it. The log is cleaned first (nccl_tests_log.h: launcher prefixes,
// Markdown fences, NCCL log lines, a lost '#'); then it is cut into runs, one per "# nThread" line, for
// logs of the whole suite (all_reduce_perf, all_gather_perf, ... one after the other), and the
// all_reduce_perf run (or the one --collective names) is read. The table header names the columns,
// so every layout since nccl-tests 2.0 reads alike (size count type redop [root] time algbw busbw
// error|#wrong ...); a row cut by NCCL log lines printed in its middle is joined again. Time =
// out-of-place time. The header before the table says where each rank ran and which NCCL
// (nccl_tests_header.h); NCCL's INFO lines say how it ran (nccl_info_lines.h).
#include "../../common/input_error.h"
#include "../text_table.h"
#include "../trace_readers.h"
#include "nccl_info_lines.h"
#include "nccl_tests_header.h"
#include "nccl_tests_log.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <utility>

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

bool is_comment(const LogLine& line) { return !line.nccl && !line.text.empty() && line.text.front() == '#'; }

bool starts_with_count(std::string_view text) {
  const auto words = split_words(text);
  return !words.empty() && parse_count(words.front()).has_value();
}

// "all_reduce" from "all_reduce_perf", "./build/all_reduce_perf_mpi", "AllReduce": the key collectives
// are compared by (lower case, no underscores).
std::string collective_key(std::string_view name) {
  if (const auto at = name.find("_perf"); at != std::string_view::npos) name = name.substr(0, at);
  std::string key;
  for (char c : name)
    if (c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

// The nccl-tests program named by WORD ("./build/all_gather_perf" -> "all_gather_perf"), or "".
std::string program_in(std::string_view word) {
  word = word.substr(word.find_last_of('/') == std::string_view::npos ? 0 : word.find_last_of('/') + 1);
  const auto at = word.find("_perf");
  if (at == std::string_view::npos || at == 0) return "";
  const std::string_view name = word.substr(0, at);
  if (!std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return "";
  return std::string(name) + "_perf";
}

std::optional<std::uint64_t> type_bytes(std::string_view type) {
  static const std::map<std::string_view, std::uint64_t> kSizes{
      {"int8", 1},  {"uint8", 1},  {"char", 1},   {"int32", 4},    {"uint32", 4},   {"int", 4},  {"int64", 8},
      {"uint64", 8}, {"half", 2},  {"float16", 2}, {"bfloat16", 2}, {"float", 4},   {"float32", 4}, {"double", 8},
      {"float64", 8}, {"fp8_e4m3", 1}, {"fp8_e5m2", 1}, {"f8e4m3", 1}, {"f8e5m2", 1}};
  const auto it = kSizes.find(type);
  return it == kSizes.end() ? std::nullopt : std::optional(it->second);
}

// One run of the log: its lead-in (command lines, nccl-tests' version and "Collective test starting"),
// its header from "# nThread" on, its table.
struct Section {
  std::size_t lead_in = 0;
  std::size_t anchor = 0;
  std::size_t end = 0;
  std::size_t table = std::string::npos;  // index of the table header
  std::string program;                    // "all_reduce_perf", or "" when the log does not name it
};

std::vector<Section> sections_of(const NcclTestsLog& log) {
  const auto& lines = log.lines;
  std::vector<std::size_t> anchors;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!is_comment(lines[i])) continue;
    const auto words = split_words(std::string_view(lines[i].text).substr(1));
    if (!words.empty() && words.front() == "nThread") anchors.push_back(i);
  }
  if (anchors.empty())
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (is_comment(lines[i]) && !header_columns(lines[i].text).empty()) anchors.push_back(i);
  std::vector<Section> sections;
  for (std::size_t k = 0; k < anchors.size(); ++k) {
    Section section;
    section.anchor = anchors[k];
    section.end = k + 1 < anchors.size() ? anchors[k + 1] : lines.size();
    // The lead-in: back from the anchor to the previous run's last row or footer.
    const std::size_t floor = k == 0 ? 0 : anchors[k - 1] + 1;
    section.lead_in = section.anchor;
    while (section.lead_in > floor) {
      const LogLine& before = lines[section.lead_in - 1];
      const bool previous_table = !before.nccl && (before.text.starts_with("# Avg bus bandwidth") ||
                                                   before.text.starts_with("# Out of bounds") || starts_with_count(before.text));
      if (previous_table) break;
      --section.lead_in;
    }
    for (std::size_t i = section.anchor; i < section.end && section.table == std::string::npos; ++i)
      if (is_comment(lines[i]) && !header_columns(lines[i].text).empty()) section.table = i;
    // The program: "# Collective test starting: all_reduce_perf" (nccl-tests 2.13 on), else the last
    // *_perf named before the table (the command line, an echo).
    const std::size_t named_until = section.table == std::string::npos ? section.end : section.table;
    std::string announced;
    for (std::size_t i = section.lead_in; i < named_until; ++i) {
      if (lines[i].nccl) continue;
      const auto words = split_words(lines[i].text);
      for (std::size_t w = 0; w < words.size(); ++w) {
        if (words[w] == "starting:" && w + 1 < words.size() && w >= 1 && words[w - 1] == "test")
          announced = program_in(words[w + 1]);
        else if (const auto program = program_in(words[w]); !program.empty())
          section.program = program;
      }
    }
    if (!announced.empty()) section.program = announced;
    sections.push_back(section);
  }
  return sections;
}

// Whether the first row of SECTION's table reads as an allreduce's: a reduction (redop not "none"),
// no root, and count elements of its type making the size (all_gather and reduce_scatter count a
// rank's share).
bool rows_look_like_all_reduce(const NcclTestsLog& log, const Section& section) {
  if (section.table == std::string::npos) return false;
  const auto columns = header_columns(log.lines[section.table].text);
  for (std::size_t i = section.table + 1; i < section.end; ++i) {
    const LogLine& line = log.lines[i];
    if (line.nccl || line.cut || !starts_with_count(line.text)) continue;
    const auto words = split_words(line.text);
    if (words.size() != columns.size()) return false;
    auto value = [&](std::string_view column) -> std::optional<std::string_view> {
      const auto it = std::find(columns.begin(), columns.end(), column);
      if (it == columns.end()) return std::nullopt;
      return words[static_cast<std::size_t>(it - columns.begin())];
    };
    if (value("redop") == std::optional<std::string_view>("none")) return false;
    if (const auto root = value("root"); root && *root != "-1") return false;
    const auto count = value("count"), type = value("type");
    if (count && type && parse_count(*count) && type_bytes(*type))
      return *parse_count(*count) * *type_bytes(*type) == *parse_count(words.front());
    return true;
  }
  return false;
}

std::string program_label(const Section& section) {
  return section.program.empty() ? std::string("(not named)") : section.program;
}

// The section to read: the one of the wanted collective. Throws when none or several are.
const Section& choose_section(const NcclTestsLog& log, const std::vector<Section>& sections, const std::string& wanted,
                              const std::string& file) {
  if (sections.size() == 1) {
    const Section& only = sections.front();
    if (only.program.empty() || collective_key(only.program) == collective_key(wanted)) return only;
    throw_trace_error(file, log.lines[only.anchor].number,
                      fmt::format("this log is a run of {}, not of {}: give --collective {} to compare it", only.program,
                                  wanted, only.program));
  }
  std::vector<const Section*> named, unnamed;
  for (const Section& section : sections) {
    if (!section.program.empty() && collective_key(section.program) == collective_key(wanted)) named.push_back(&section);
    if (section.program.empty() && collective_key(wanted) == "allreduce" && rows_look_like_all_reduce(log, section))
      unnamed.push_back(&section);
  }
  const auto& found = named.empty() ? unnamed : named;
  if (found.size() == 1) return *found.front();
  std::vector<std::string> listed;
  for (const Section& section : sections)
    listed.push_back(fmt::format("{} at line {}", program_label(section), log.lines[section.anchor].number));
  if (found.empty())
    throw_trace_error(file, log.lines[sections.front().anchor].number,
                      fmt::format("none of the {} runs in this log is {} ({}): give --collective NAME to compare one of them",
                                  sections.size(), wanted, fmt::join(listed, ", ")));
  std::vector<int> lines;
  for (const Section* section : found) lines.push_back(log.lines[section->anchor].number);
  throw_trace_error(file, lines.front(),
                    fmt::format("{} runs of {} in this log (lines {}): keep the one to validate in its own file",
                                found.size(), wanted, fmt::join(lines, ", ")));
}

// Longer than any row nccl-tests prints (13 columns of at most 12 characters and their spaces).
constexpr std::size_t kLongestRow = 1024;

// A result row as read, possibly joined from pieces around NCCL log lines.
struct Row {
  int line;
  std::string text;
};

// The rows of SECTION's table, each whole: a row cut by an NCCL log line continues on the next line
// that is not one.
std::vector<Row> table_rows(const NcclTestsLog& log, const Section& section, std::size_t columns, const std::string& file) {
  const int header_line = log.lines[section.table].number;
  auto truncated = [&](const Row& row) {
    throw_trace_error(file, row.line,
                      fmt::format("{} columns where the header (line {}) has {}: truncated or not nccl-tests output",
                                  split_words(row.text).size(), header_line, columns));
  };
  std::vector<Row> rows;
  std::optional<Row> pending;  // a row cut by a log line, waiting for its rest
  for (std::size_t i = section.table + 1; i < section.end; ++i) {
    const LogLine& line = log.lines[i];
    if (line.nccl) continue;
    if (pending) {
      if (line.text.find_first_not_of(" \t") == std::string::npos) continue;
      const std::size_t have = split_words(pending->text).size();
      const bool rest_of_row = !is_comment(line) && !(have >= columns && (split_words(line.text).size() >= columns ||
                                                                          line.text.front() == ' ' || line.text.front() == '\t'));
      if (rest_of_row) {
        pending->text += line.text;
        if (pending->text.size() > kLongestRow) truncated(*pending);  // pieces that never make a row
        if (!line.cut) rows.push_back(*std::exchange(pending, std::nullopt));
        continue;
      }
      if (have != columns) truncated(*pending);
      rows.push_back(*std::exchange(pending, std::nullopt));
    }
    if (is_comment(line) || !starts_with_count(line.text)) continue;  // footer, chatter, blank lines
    if (line.cut) pending = Row{line.number, line.text};
    else rows.push_back({line.number, line.text});
  }
  if (pending) rows.push_back(*pending);
  for (const Row& row : rows)
    if (split_words(row.text).size() != columns) truncated(row);
  return rows;
}

// "all_reduce_perf (lines 40 to 112; the log holds 6 runs: all_reduce_perf, all_gather_perf, ...)".
std::string section_note(const NcclTestsLog& log, const std::vector<Section>& sections, const Section& chosen) {
  const int from = log.lines[chosen.anchor].number, to = log.lines[chosen.end - 1].number;
  if (sections.size() == 1) return "";
  std::vector<std::string> programs;
  for (const Section& section : sections) programs.push_back(program_label(section));
  return fmt::format("{} (lines {} to {}; the log holds {} runs: {})", chosen.program.empty() ? "all_reduce_perf by its columns" : chosen.program,
                     from, to, sections.size(), fmt::join(programs, ", "));
}

}  // namespace

bool detect_nccl_tests(std::string_view text) {
  for (const auto& line : split_lines(text))
    if (!header_columns(without_launcher_prefix(line.text)).empty()) return true;
  return false;
}

namespace {

// The collective an nccl-tests program name ("all_gather_perf", "./build/alltoall_perf") runs, if ringsim runs it.
std::optional<Collective> collective_of_program(std::string_view program) {
  const auto slash = program.find_last_of('/');
  const std::string key = collective_key(slash == std::string_view::npos ? program : program.substr(slash + 1));
  for (std::string_view name : kCollectiveNames)
    if (collective_key(name) == key) return find_collective(name);
  return std::nullopt;
}

}  // namespace

MeasuredTrace read_nccl_tests_collective(std::string_view text, const std::string& file, const std::string& collective) {
  // The run is compared with a simulation of the same collective, its sizes and busbw as nccl-tests counts them.
  const std::optional<Collective> simulated = collective_of_program(collective);
  if (!simulated)
    throw InputError(fmt::format("{}: --collective {}: ringsim simulates all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                                 "broadcast_perf, reduce_perf, alltoall_perf and sendrecv_perf; it cannot compare another", file, collective));
  MeasuredTrace trace;
  trace.collective = *simulated;
  trace.format = "nccl-tests";
  trace.time_meaning = "out-of-place time as nccl-tests reports it (average over its iterations)";
  const NcclTestsLog log = clean_nccl_tests_log(text);
  const auto sections = sections_of(log);
  if (sections.empty() || std::none_of(sections.begin(), sections.end(), [](const Section& s) { return s.table != std::string::npos; }))
    throw_trace_error(file, 1, "no \"# size count type ... time algbw busbw\" header: not nccl-tests output");
  const Section& section = choose_section(log, sections, collective, file);
  if (section.table == std::string::npos)
    throw_trace_error(file, log.lines[section.anchor].number,
                      "this run has no \"# size count type ... time algbw busbw\" header: cut short?");
  const auto columns = header_columns(log.lines[section.table].text);
  const std::size_t time_column = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), "time") - columns.begin());

  // Header facts: the ranks of this run only (a suite repeats them), NCCL's version from the run's
  // lead-in on, and NCCL's INFO lines.
  const auto header_lines = log.text_lines(section.lead_in, section.end);
  trace.run = read_nccl_tests_header(header_lines, file);
  if (!trace.run || !trace.run->library_version) {
    if (auto version = nccl_version_in(log.text_lines(0, log.lines.size()))) {
      if (!trace.run) trace.run = MeasuredRun{"NCCL", std::nullopt, {}, 0, std::nullopt};
      trace.run->library_version = std::move(version);
    }
  }
  NcclRunFacts facts = read_nccl_info_lines(header_lines);
  if (!facts.empty()) {
    if (!trace.run) trace.run = MeasuredRun{"NCCL", std::nullopt, {}, 0, std::nullopt};
    trace.run->nccl = std::move(facts);
  }
  trace.section = section_note(log, sections, section);

  for (const Row& row : table_rows(log, section, columns.size(), file)) {
    const auto words = split_words(row.text);
    const auto time_us = parse_number(words[time_column]);
    if (!time_us || *time_us <= 0)
      throw_trace_error(file, row.line, fmt::format("\"{}\" is not a time in microseconds", words[time_column]));
    trace.points.push_back({*parse_count(words.front()), *time_us * 1e-6, "", "", std::nullopt, row.line});
  }
  if (trace.points.empty()) throw_trace_error(file, log.lines[section.table].number, "the nccl-tests table has no rows");
  if (trace.run && !trace.run->ranks.empty()) {
    trace.ranks = static_cast<int>(trace.run->ranks.size());
    for (auto& point : trace.points) point.ranks = trace.ranks;
  }
  return trace;
}

std::vector<std::string> nccl_tests_programs(std::string_view text) {
  const NcclTestsLog log = clean_nccl_tests_log(text);
  std::vector<std::string> programs;
  for (const Section& section : sections_of(log)) {
    std::string program = section.program;
    if (program.empty() && rows_look_like_all_reduce(log, section)) program = "all_reduce_perf";
    const auto same = [&](const std::string& seen) { return collective_key(seen) == collective_key(program); };
    if (section.table != std::string::npos && !program.empty() && std::none_of(programs.begin(), programs.end(), same))
      programs.push_back(program);
  }
  return programs;
}

std::optional<Collective> nccl_tests_collective(std::string_view program) { return collective_of_program(program); }

MeasuredTrace read_nccl_tests(std::string_view text, const std::string& file) {
  return read_nccl_tests_collective(text, file, "all_reduce_perf");
}

}  // namespace ringsim
