// Runs the built `ringsim` command as a user would, for whole-program tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ringsim::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs SHELL_COMMAND (already quoted) with stdout/stderr captured through files in SCRATCH.
inline CommandResult run_shell(const std::string& shell_command, const std::filesystem::path& scratch) {
  const auto out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  // Grouped, so the redirections apply to the whole command, not to the last stage of a pipeline.
  const std::string full = "{ " + shell_command + "\n} >" + out.string() + " 2>" + err.string() + " </dev/null";
  const int status = std::system(full.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

inline CommandResult run_ringsim(const std::string& args, const std::filesystem::path& scratch) {
  return run_shell(std::string(RINGSIM_BINARY) + " " + args, scratch);
}

inline nlohmann::json read_json(const std::filesystem::path& file) { return nlohmann::json::parse(read_text(file)); }

// SCENARIO (a JSON object's text) with "check": false, for tests of times and traffic alone: no buffer
// holds values, as with nccl-tests' -c 0, so no run pays the copies and sums (most of such a test's time
// when they were checked). The tests of exact results keep the check.
inline std::string times_only(const std::string& scenario) {
  const auto brace = scenario.find('{');
  if (brace == std::string::npos) throw std::invalid_argument("times_only: not a JSON object: " + scenario);
  return scenario.substr(0, brace + 1) + R"("check": false, )" + scenario.substr(brace + 1);
}

// The result row of a placement/order at a size.
inline const nlohmann::json& row_of(const nlohmann::json& results, const std::string& placement,
                                    const std::string& order, std::uint64_t bytes) {
  for (const auto& row : results.at("results"))
    if (row.at("placement") == placement && row.at("order") == order && row.at("bytes") == bytes) return row;
  throw std::runtime_error("no result row for " + placement + " " + order + " " + std::to_string(bytes));
}

}  // namespace ringsim::testing
