// The host of every rank, from a hostfile as smpirun reads it: shared by the S4U and maestro runners.
#pragma once

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <string>
#include <vector>

namespace ringsim::s4u_engine {

// One rank per line ("host" or "host:count" for COUNT ranks), each host looked up in ENGINE's
// platform. Throws std::runtime_error naming the file when it cannot be read, is empty or names an
// unknown host.
std::vector<simgrid::s4u::Host*> rank_hosts(const simgrid::s4u::Engine& engine, const std::string& hostfile);

}  // namespace ringsim::s4u_engine
