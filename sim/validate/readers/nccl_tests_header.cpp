#include "nccl_tests_header.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

// The word after KEY in WORDS, as a count, when KEY is there.
std::optional<std::uint64_t> count_after(const std::vector<std::string_view>& words, std::string_view key) {
  auto it = std::find(words.begin(), words.end(), key);
  if (it == words.end() || it + 1 == words.end()) return std::nullopt;
  return parse_count(*(it + 1));
}

// "2.6.4" from "2.6.4+cuda10.1"; nullopt unless it is dotted digits.
std::optional<std::string> dotted_version(std::string_view word) {
  const std::string_view version = word.substr(0, word.find('+'));
  if (version.empty() || version.find('.') == std::string_view::npos ||
      version.find_first_not_of("0123456789.") != std::string_view::npos)
    return std::nullopt;
  return std::string(version);
}

// NCCL_VERSION_CODE as nccl-tests prints it (nccl-library=23003): X*10000+Y*100+Z since 2.9,
// X*1000+Y*100+Z before.
std::optional<std::string> version_of_code(std::string_view word) {
  const auto code = parse_count(word.substr(word.find('=') + 1));
  if (!code || *code < 2000) return std::nullopt;
  if (*code >= 20900) return fmt::format("{}.{}.{}", *code / 10000, *code % 10000 / 100, *code % 100);
  return fmt::format("{}.{}.{}", *code / 1000, *code % 1000 / 100, *code % 100);
}

// NCCL's version printed on LINE, if any.
std::optional<std::string> version_on(std::string_view line) {
  if (const auto at = line.find("NCCL version "); at != std::string_view::npos) {
    const auto words = split_words(line.substr(at + 13));
    if (!words.empty()) return dotted_version(words.front());
  }
  if (line.starts_with("# nccl-tests version"))
    for (const auto word : split_words(line))
      if (word.starts_with("nccl-library=")) return version_of_code(word);
  return std::nullopt;
}

// The word at INDEX of WORDS as a count of at most a million, or -1.
long small_count_at(const std::vector<std::string_view>& words, std::size_t index) {
  if (index >= words.size()) return -1;
  const auto count = parse_count(words[index]);
  return count && *count <= 1'000'000 ? static_cast<long>(*count) : -1;
}

// A "#  Rank  R ... on HOST device D ..." line (WORDS after the '#'); throws when it is cut or garbled.
MeasuredRank rank_of(const std::vector<std::string_view>& words, const std::string& file, int line) {
  const auto on = static_cast<std::size_t>(std::find(words.begin(), words.end(), "on") - words.begin());
  const auto device = on + 2 <= words.size()
                          ? static_cast<std::size_t>(std::find(words.begin() + static_cast<std::ptrdiff_t>(on) + 2, words.end(), "device") -
                                                     words.begin())
                          : words.size();
  const long rank = small_count_at(words, 1), device_number = small_count_at(words, device + 1);
  if (rank < 0 || on + 1 >= words.size() || device_number < 0)
    throw_trace_error(file, line, "expected \"#  Rank  R ... on HOST device D ...\" (nccl-tests' list of ranks)");
  // The device's name follows its bus id: "device  0 [0000:1b:00] NVIDIA H100 80GB HBM3".
  std::string gpu;
  if (device + 2 < words.size() && words[device + 2].starts_with('['))
    for (std::size_t w = device + 3; w < words.size(); ++w) gpu += (gpu.empty() ? "" : " ") + std::string(words[w]);
  return {static_cast<int>(rank), std::string(words[on + 1]), static_cast<int>(device_number), line, gpu};
}

// Rank numbers must be 0..N-1, each once; returns the ranks ordered by number.
std::vector<MeasuredRank> in_rank_order(const std::vector<MeasuredRank>& listed, const std::string& file) {
  std::map<int, const MeasuredRank*> by_number;
  for (const auto& rank : listed) {
    auto [it, fresh] = by_number.emplace(rank.rank, &rank);
    if (!fresh)
      throw_trace_error(file, rank.line, fmt::format("rank {} is listed twice (also on line {})", rank.rank, it->second->line));
  }
  std::vector<MeasuredRank> ordered;
  for (int r = 0; r < static_cast<int>(listed.size()); ++r) {
    auto it = by_number.find(r);
    if (it == by_number.end())
      throw_trace_error(file, listed.front().line,
                        fmt::format("the header lists {} ranks but not rank {} (ranks are numbered 0 to {})", listed.size(), r,
                                    listed.size() - 1));
    ordered.push_back(*it->second);
  }
  return ordered;
}

}  // namespace

std::optional<std::string> nccl_version_in(const std::vector<TextLine>& lines) {
  for (const auto& [number, line] : lines)
    if (auto version = version_on(line)) return version;
  return std::nullopt;
}

std::optional<MeasuredRun> read_nccl_tests_header(const std::vector<TextLine>& lines, const std::string& file) {
  MeasuredRun run{"NCCL", std::nullopt, {}, 0, std::nullopt};
  std::vector<MeasuredRank> listed;
  std::optional<std::uint64_t> per_process;  // nThread x nGpus
  int per_process_line = 0;
  std::optional<std::pair<std::uint64_t, int>> nccl_nranks;  // NCCL's "nranks N ... Init COMPLETE", and its line
  for (const auto& [number, line] : lines) {
    if (!run.library_version) run.library_version = version_on(line);
    if (!line.empty() && line.front() == '#') {
      const auto words = split_words(line.substr(1));
      if (!words.empty() && words.front() == "Rank") listed.push_back(rank_of(words, file, number));
      if (!words.empty() && words.front() == "nThread" && !per_process) {
        const auto threads = count_after(words, "nThread"), gpus = count_after(words, "nGpus");
        if (threads && gpus && *threads > 0 && *gpus > 0) per_process = *threads * *gpus, per_process_line = number;
      }
    } else if (!nccl_nranks && line.find("Init COMPLETE") != std::string_view::npos) {
      const auto words = split_words(line);
      auto nranks = count_after(words, "nranks");
      if (!nranks) nranks = count_after(words, "nRanks");
      if (nranks) nccl_nranks = {{*nranks, number}};
    }
  }
  if (listed.empty() && !run.library_version) return std::nullopt;
  if (!listed.empty()) {
    run.header_line = listed.front().line;
    run.ranks = in_rank_order(listed, file);
    if (per_process && run.ranks.size() % *per_process != 0)
      throw_trace_error(file, per_process_line,
                        fmt::format("{} ranks listed (lines {} to {}) is not a multiple of nThread x nGpus = {}", run.ranks.size(),
                                    listed.front().line, listed.back().line, *per_process));
    if (nccl_nranks && nccl_nranks->first != run.ranks.size())
      throw_trace_error(file, nccl_nranks->second,
                        fmt::format("NCCL reports nranks {} but the header lists {} ranks (lines {} to {})", nccl_nranks->first,
                                    run.ranks.size(), listed.front().line, listed.back().line));
  }
  return run;
}

}  // namespace ringsim
