#include "nccl_tests_log.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace ringsim {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t'; }

// The "HOST:PID:TID" token of a log line in LINE: [start of the token, position of ":PID:TID").
struct LogToken {
  std::size_t start;
  std::size_t colon;
};

std::optional<LogToken> log_token(std::string_view line) {
  const std::size_t last_nccl = line.rfind("NCCL");
  if (last_nccl == std::string_view::npos) return std::nullopt;
  for (std::size_t at = line.find(" ["); at != std::string_view::npos && at < last_nccl; at = line.find(" [", at + 1)) {
    std::size_t i = at + 2;
    const std::size_t digits_from = i;
    while (i < line.size() && is_digit(line[i])) ++i;
    if (i == digits_from || i >= line.size() || line[i] != ']' || i > last_nccl) continue;
    // Backwards over ":PID:TID".
    std::size_t j = at;
    for (int part = 0; part < 2; ++part) {
      const std::size_t end = j;
      while (j > 0 && is_digit(line[j - 1])) --j;
      if (j == end || j == 0 || line[j - 1] != ':') {
        j = std::string_view::npos;
        break;
      }
      --j;
    }
    if (j == std::string_view::npos || j == 0) continue;
    std::size_t start = j;
    while (start > 0 && !is_space(line[start - 1])) --start;
    if (start == j) continue;
    return LogToken{start, j};
  }
  return std::nullopt;
}

// "[1,0]<stdout>:" (mpirun --tag-output) or "12: " (srun --label) at the start of LINE: its length.
std::size_t launcher_prefix(std::string_view line) {
  if (line.starts_with('[')) {
    std::size_t i = 1;
    while (i < line.size() && (is_digit(line[i]) || line[i] == ',')) ++i;
    if (i > 1 && i < line.size() && line[i] == ']') {
      const std::string_view rest = line.substr(i + 1);
      for (std::string_view stream : {"<stdout>:", "<stderr>:"})
        if (rest.starts_with(stream)) {
          const std::size_t end = i + 1 + stream.size();
          return end < line.size() && line[end] == ' ' ? end + 1 : end;
        }
    }
  }
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  const std::size_t digits_from = i;
  while (i < line.size() && is_digit(line[i])) ++i;
  if (i > digits_from && i + 1 < line.size() && line[i] == ':' && line[i + 1] == ' ') return i + 2;
  return 0;
}

std::string_view trim_left(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  return text;
}

bool is_fence(std::string_view line) {
  const std::string_view trimmed = trim_left(line);
  return trimmed.starts_with("```") || trimmed.starts_with("~~~");
}

// "Rank  3 Group 0 Pid 123 on host device 1 ..." without its '#' (lost in a pasted copy).
bool is_bare_rank_line(std::string_view line) {
  const auto words = split_words(line);
  return words.size() >= 6 && words[0] == "Rank" && parse_count(words[1]) &&
         std::find(words.begin(), words.end(), "on") != words.end() &&
         std::find(words.begin(), words.end(), "device") != words.end();
}

}  // namespace

std::string without_embedded_launcher_tags(std::string_view line) {
  std::string kept;
  kept.reserve(line.size());
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t open = line.find('[', at);
    if (open == std::string_view::npos) {
      kept += line.substr(at);
      break;
    }
    const std::size_t tag = launcher_prefix(line.substr(open));
    // A tag glued inside a word ("node-[1,0]<stdout>:00000C"): the launcher flushed another line's
    // prefix into this one; its trailing space, if any, belongs to the text.
    const std::size_t length = tag > 0 && line[open + tag - 1] == ' ' ? tag - 1 : tag;
    kept += line.substr(at, open - at);
    if (length == 0) kept += '[';
    at = open + (length == 0 ? 1 : length);
  }
  return kept;
}

std::string_view without_launcher_prefix(std::string_view line) {
  std::string_view rest = line.substr(launcher_prefix(line));
  if (const auto trimmed = trim_left(rest); trimmed.starts_with('#')) return trimmed;
  return rest;
}

std::size_t nccl_log_start(std::string_view line, const std::set<std::string, std::less<>>& hosts) {
  const auto token = log_token(line);
  if (!token) return std::string_view::npos;
  if (token->start == 0) return 0;
  const std::string_view glued = line.substr(token->start, token->colon - token->start);
  // The longest known host the token ends with (host names have at most 64 characters); else from
  // its first letter (host names start with one).
  for (std::size_t length = std::min<std::size_t>(glued.size(), 64); length > 0; --length)
    if (hosts.contains(glued.substr(glued.size() - length))) return token->colon - length;
  const auto letter = std::find_if(glued.begin(), glued.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  return token->start + static_cast<std::size_t>(letter == glued.end() ? 0 : letter - glued.begin());
}

NcclTestsLog clean_nccl_tests_log(std::string_view text) {
  const auto raw = split_lines(text);
  std::vector<std::string> stripped;
  stripped.reserve(raw.size());
  std::set<std::string, std::less<>> hosts;
  for (const auto& [number, line] : raw) {
    stripped.push_back(without_embedded_launcher_tags(without_launcher_prefix(line)));
    const std::string_view rest = stripped.back();
    if (const auto token = log_token(rest); token && token->start == 0) hosts.emplace(rest.substr(0, token->colon));
  }
  NcclTestsLog log;
  log.lines.reserve(raw.size() + 16);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const int number = raw[i].number;
    const std::string_view line = stripped[i];
    if (is_fence(line)) {
      log.lines.push_back({number, "", false, false});
      continue;
    }
    const std::size_t start = nccl_log_start(line, hosts);
    if (start == 0) {
      log.lines.push_back({number, std::string(line), true, false});
    } else if (start != std::string_view::npos) {
      log.lines.push_back({number, std::string(line.substr(0, start)), false, true});
      log.lines.push_back({number, std::string(line.substr(start)), true, false});
    } else if (is_bare_rank_line(line)) {
      log.lines.push_back({number, "# " + std::string(trim_left(line)), false, false});
    } else {
      log.lines.push_back({number, std::string(line), false, false});
    }
  }
  return log;
}

std::vector<TextLine> NcclTestsLog::text_lines(std::size_t from, std::size_t to) const {
  std::vector<TextLine> views;
  for (std::size_t i = from; i < std::min(to, lines.size()); ++i) views.push_back({lines[i].number, lines[i].text});
  return views;
}

}  // namespace ringsim
