// A user's MPI hostfile for `ringsim measure --hostfile`: the first word of each line is a host
// ("node17 slots=4" -> node17); blank lines and '#' comments are skipped. Topology node i runs on
// the i-th host.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim {

// Throws InputError naming the file (and line) when it is unreadable or names a host twice.
std::vector<std::string> read_hostfile(const std::filesystem::path& file);

}  // namespace ringsim
