#include "hostfile.h"

#include "../common/input_error.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace ringsim {

std::vector<std::string> read_hostfile(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot read file (does it exist?)", file.string()));
  std::vector<std::string> hosts;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string host;
    if (!(words >> host)) continue;
    if (std::find(hosts.begin(), hosts.end(), host) != hosts.end())
      throw InputError(fmt::format("{}:{}: host {} is listed twice; list each node's host once, in topology order",
                                   file.string(), number, host));
    hosts.push_back(host);
  }
  if (hosts.empty()) throw InputError(fmt::format("{}: no host in the hostfile", file.string()));
  return hosts;
}

}  // namespace ringsim
