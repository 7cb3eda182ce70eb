#include "rank_hosts.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ringsim::s4u_engine {

std::vector<simgrid::s4u::Host*> rank_hosts(const simgrid::s4u::Engine& engine, const std::string& hostfile) {
  std::ifstream in(hostfile);
  if (!in) throw std::runtime_error(hostfile + ": cannot read the hostfile");
  std::vector<simgrid::s4u::Host*> hosts;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    const std::size_t colon = word.rfind(':');
    const int count = colon == std::string::npos ? 1 : std::stoi(word.substr(colon + 1));
    const std::string name = word.substr(0, colon);
    simgrid::s4u::Host* host = engine.host_by_name_or_null(name);
    if (host == nullptr) throw std::runtime_error(hostfile + ": host " + name + " is not in the platform");
    for (int i = 0; i < count; ++i) hosts.push_back(host);
  }
  if (hosts.empty()) throw std::runtime_error(hostfile + ": no host in the hostfile");
  return hosts;
}

}  // namespace ringsim::s4u_engine
