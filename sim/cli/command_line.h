// Minimal option parsing shared by the subcommands: "--opt VALUE", "--opt=VALUE", flags, positionals.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ringsim {

// Wrong usage of the command line: printed with a pointer to --help, exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParsedArguments {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::set<std::string> flags;

  std::optional<std::string> value(const std::string& option) const;
  bool has(const std::string& flag) const { return flags.count(flag) != 0; }
};

// Parses argv[first..]; "--help"/"-h" is always a flag. Throws UsageError for unknown options.
ParsedArguments parse_arguments(int argc, char** argv, int first, const std::string& command,
                                const std::set<std::string>& value_options, const std::set<std::string>& flag_options);

// Parses a positive integer option value; throws UsageError naming the option.
int positive_int_option(const std::string& option, const std::string& text);

}  // namespace ringsim
