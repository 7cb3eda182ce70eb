#include "command_line.h"

#include "../common/units.h"

#include <charconv>
#include <algorithm>
#include <cstdlib>
#include <thread>
#include <fmt/format.h>

namespace ringsim {

std::optional<std::string> ParsedArguments::value(const std::string& option) const {
  auto it = values.find(option);
  return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
}

ParsedArguments parse_arguments(int argc, char** argv, int first, const std::string& command,
                                const std::set<std::string>& value_options, const std::set<std::string>& flag_options) {
  ParsedArguments parsed;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      parsed.flags.insert("--help");
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      parsed.positional.push_back(arg);
      continue;
    }
    std::optional<std::string> inline_value;
    if (auto eq = arg.find('='); eq != std::string::npos && arg.starts_with("--"))
      inline_value = arg.substr(eq + 1), arg = arg.substr(0, eq);
    if (value_options.count(arg) != 0) {
      if (!inline_value && i + 1 >= argc)
        throw UsageError(fmt::format("ringsim {}: option {} needs a value", command, arg));
      parsed.values[arg] = inline_value ? *inline_value : argv[++i];
    } else if (flag_options.count(arg) != 0 && !inline_value) {
      parsed.flags.insert(arg);
    } else {
      throw UsageError(fmt::format("ringsim {}: unknown option {}", command, arg));
    }
  }
  return parsed;
}

int positive_int_option(const std::string& option, const std::string& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1)
    throw UsageError(fmt::format("option {} takes a positive integer, not \"{}\"", option, text));
  return value;
}

}  // namespace ringsim

namespace ringsim {

int jobs_option(const ParsedArguments& args) {
  if (auto jobs = args.value("--jobs")) return positive_int_option("--jobs", *jobs);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::uint64_t bytes_option(const std::string& option, const std::string& text) {
  auto bytes = parse_bytes(text);
  if (!bytes) throw UsageError(fmt::format("option {} takes {}, not \"{}\"", option, kBytesHint, text));
  return *bytes;
}

double number_option(const std::string& option, const std::string& text, double above, double at_most,
                     const std::string& example) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(value > above && value <= at_most))
    throw UsageError(fmt::format("option {} takes a number above {} such as {}, not \"{}\"", option, above, example, text));
  return value;
}

}  // namespace ringsim
