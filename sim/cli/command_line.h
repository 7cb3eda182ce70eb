// Minimal option parsing shared by the subcommands: "--opt VALUE", "--opt=VALUE", flags, positionals.
#pragma once

#include <cstdint>
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

// --jobs N, or the number of cores when absent.
int jobs_option(const ParsedArguments& args);

// Typed option values; each throws UsageError naming the option and what it takes.
int positive_int_option(const std::string& option, const std::string& text);
std::uint64_t bytes_option(const std::string& option, const std::string& text);  // "4MiB", "1048576"
// A number in (above, at_most], e.g. --tolerance 0.10; EXAMPLE is shown in the error.
double number_option(const std::string& option, const std::string& text, double above, double at_most,
                     const std::string& example);

}  // namespace ringsim
