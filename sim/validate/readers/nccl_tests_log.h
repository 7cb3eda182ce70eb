// An nccl-tests log as users hold it, cleaned line by line before any table is read: the prefixes
// launchers add (Open MPI's "[1,0]<stdout>:", srun --label's "3: "), Markdown fences and indentation
// are stripped, a "Rank R ... on HOST device D" line that lost its '#' gets it back, and NCCL's own log
// lines ("HOST:PID:TID [DEV] NCCL INFO ...") are told apart from the table, including those glued
// onto the middle of a result row by another thread's output.
#pragma once

#include "../text_table.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

struct LogLine {
  int number = 0;       // 1-based, in the file as given
  std::string text;     // without launcher prefix; for a row cut by a log line, the row's part only
  bool nccl = false;    // an NCCL log line (INFO, WARN, ...): never part of the table
  bool cut = false;     // a row's text ended where an NCCL log line was glued on: its rest follows later
};

struct NcclTestsLog {
  std::vector<LogLine> lines;      // every line, in order (NCCL log lines glued onto a row come right after it)

  // The lines [from, to) as TextLine views (into this log: keep it alive), NCCL log lines included.
  std::vector<TextLine> text_lines(std::size_t from, std::size_t to) const;
};

NcclTestsLog clean_nccl_tests_log(std::string_view text);

// LINE without a launcher's prefix ("[1,0]<stdout>:", "3: ") and, before a '#', without indentation.
std::string_view without_launcher_prefix(std::string_view line);

// LINE without the launcher tags ("[1,0]<stdout>:") that a launcher flushed into its middle, as in
// a host name "node-[1,0]<stdout>:00000C" for "node-00000C" when two ranks' output interleaved.
std::string without_embedded_launcher_tags(std::string_view line);

// Where an NCCL log line ("HOST:PID:TID [DEV] ... NCCL INFO|WARN ...") starts in LINE, or npos.
// HOSTS: host names seen at the start of log lines, to split a log line glued onto a row's text.
std::size_t nccl_log_start(std::string_view line, const std::set<std::string, std::less<>>& hosts);

}  // namespace ringsim
