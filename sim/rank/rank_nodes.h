// Which node each rank runs on, for algorithms that treat ranks of one node differently
// (hierarchical). Found once per run, before any timing, from MPI_Get_processor_name: under SMPI that
// is the SimGrid host, "<node>-gpu<i>" on generated platforms, so the node is the name without its
// "-gpu<i>" suffix; under a real MPI it is the machine's host name. MPI_Comm_split_type(
// MPI_COMM_TYPE_SHARED) is not used: SMPI splits it per SimGrid host, and each GPU is a host.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// "node0-gpu3" -> "node0"; names without a "-gpu<digits>" suffix are their own node.
std::string_view node_of_host(std::string_view host);

// Node index of every rank of COMM (collective), numbered in order of each node's first rank.
std::vector<int> rank_node_indices(MPI_Comm comm);

}  // namespace ringsim
