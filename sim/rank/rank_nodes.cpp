#include "rank_nodes.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace ringsim {

std::string_view node_of_host(std::string_view host) {
  const std::size_t dash = host.rfind("-gpu");
  if (dash == std::string_view::npos || dash + 4 == host.size()) return host;
  const std::string_view digits = host.substr(dash + 4);
  const bool all_digits = std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  return all_digits ? host.substr(0, dash) : host;
}

std::vector<int> rank_node_indices(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(mine, &length);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  std::vector<std::string> nodes;  // distinct nodes, in order of first rank
  std::vector<int> node_of_rank;
  for (int r = 0; r < size; ++r) {
    const char* name = all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    const std::string node(node_of_host(std::string_view(name, strnlen(name, MPI_MAX_PROCESSOR_NAME))));
    auto it = std::find(nodes.begin(), nodes.end(), node);
    if (it == nodes.end()) it = nodes.insert(nodes.end(), node);
    node_of_rank.push_back(static_cast<int>(it - nodes.begin()));
  }
  return node_of_rank;
}

}  // namespace ringsim
