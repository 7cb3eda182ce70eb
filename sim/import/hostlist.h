// Slurm's hostlist expressions ("node[01-16]", "gpu[1-3,7],login1", "r[1-2]n[01-04]"), as
// topology.conf and scontrol print them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// The hosts of EXPRESSION in order, zero-padding kept ("node[01-03]" -> node01 node02 node03), or
// nullopt with WHY set when it is not a hostlist (an unclosed bracket, a range running backwards,
// more than LIMIT hosts, a pattern longer than 256 characters: host names are at most 64).
std::optional<std::vector<std::string>> expand_hostlist(std::string_view expression, std::string& why, std::size_t limit = 100000);

}  // namespace ringsim
