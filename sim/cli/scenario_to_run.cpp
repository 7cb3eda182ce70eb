#include "scenario_to_run.h"

#include "../common/input_error.h"
#include "../model/sweep_spec.h"

#include <cctype>
#include <fmt/format.h>
#include <regex>

namespace ringsim {
namespace {

// A shell pattern of one file name ("hkbu-10g-*.txt", "h100-10x{1,2,4,8}-suite.txt") as a regex.
std::regex name_pattern(const std::string& glob) {
  std::string pattern;
  for (char c : glob) {
    if (c == '*') pattern += ".*";
    else if (c == '{') pattern += '(';
    else if (c == '}') pattern += ')';
    else if (c == ',') pattern += '|';
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') pattern += c;
    else pattern += std::string("\\") + c;
  }
  return std::regex(pattern);
}

// The first file of FOLDER (by name) matching the shell pattern NAME, or NAME itself when it is no pattern.
std::optional<std::string> first_match(const std::filesystem::path& folder, const std::string& name) {
  if (name.find_first_of("*{") == std::string::npos) return name;
  const std::regex pattern = name_pattern(name);
  std::optional<std::string> first;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string candidate = entry.path().filename().string();
    if (std::regex_match(candidate, pattern) && (!first || candidate < *first)) first = candidate;
  }
  return first;
}

}  // namespace

std::optional<std::string> trace_named_by(const Scenario& scenario) {
  static const std::regex kMeasured(R"(--measured\s+(\S+?)[:.,;)]?(\s|$))");
  std::smatch match;
  if (!std::regex_search(scenario.question, match, kMeasured)) return std::nullopt;
  const std::filesystem::path named = match[1].str();
  // The shipped questions name traces from the repository's root: find the ancestor of the
  // scenario's folder that holds the trace's folder.
  std::error_code ignored;
  for (auto folder = std::filesystem::absolute(scenario.file).parent_path();; folder = folder.parent_path()) {
    if (std::filesystem::is_directory(folder / named.parent_path(), ignored)) {
      const auto file = first_match(folder / named.parent_path(), named.filename().string());
      if (!file) return named.string();
      const auto trace = folder / named.parent_path() / *file;
      const auto relative = trace.lexically_relative(std::filesystem::current_path());
      return relative.empty() ? trace.string() : relative.string();
    }
    if (folder == folder.parent_path()) return named.string();
  }
}

std::string validation_scenario_line(const Scenario& scenario) {
  const std::optional<std::string> trace = trace_named_by(scenario);
  return fmt::format("{}: /placements: none: a validation scenario, whose placements come from a measured trace's header; "
                     "run: ringsim validate {} --measured {}",
                     scenario.file.string(), scenario.file.string(), trace.value_or("TRACE"));
}

std::optional<std::string> sweep_file_line(const std::filesystem::path& file) {
  try {
    load_sweep(file);
  } catch (const InputError&) {
    return std::nullopt;
  }
  return fmt::format("{}: a sweep file (placement generators or model axes): run: ringsim sweep plan {} (then ringsim sweep run {} --out DIR)",
                     file.string(), file.string(), file.string());
}

}  // namespace ringsim
