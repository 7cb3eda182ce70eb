// Closed-form times of the allreduce algorithms in the alpha-beta-gamma model of Thakur, Rabenseifner
// and Gropp (2005): a message of n bytes between two ranks costs alpha + n*beta, adding n bytes of
// floats costs n*gamma. The formulas are what the simulation gives on the ideal model (CM02, no
// cross-traffic, no SMPI factors) with one rank per node behind a non-blocking switch and
// split-duplex NICs, where every concurrent exchange of an algorithm has links of its own.
#pragma once

#include "../model/cost_parameters.h"
#include "../model/model_settings.h"
#include "../model/placement.h"
#include "../platform/topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

class TopologyRoutes;

// Thakur–Rabenseifner–Gropp alpha-beta-gamma cost of ALGORITHM for RANKS ranks and BYTES bytes;
// nullopt when it has no closed form here: the MPI library's own (`mpi`), and NCCL's beyond one rank
// (their time model is NCCL's).
std::optional<double> closed_form_time_s(std::string_view algorithm, int ranks, std::uint64_t bytes,
                                         const CostParameters& p);

// hierarchical with RANKS_PER_NODE ranks on each of NODES nodes: BETWEEN is the route between nodes,
// INSIDE the route between two ranks of one node (its bus, shared by every transfer in the node).
double hierarchical_time_s(int nodes, int ranks_per_node, std::uint64_t bytes, const CostParameters& between,
                           const CostParameters& inside);

// alpha, beta, gamma of a placement's ranks on a compact topology (one rank per node is the case the
// formulas assume): alpha = the longest route latency between consecutive ranks on different nodes,
// beta = 1 / the slowest link bandwidth on those routes, gamma = 1 / (4 bytes per flop x the slowest
// host's flop/s), as the rank program charges one flop per float added. With every rank on one node,
// the routes inside it are used.
CostParameters cost_parameters(const Topology& topology, const std::vector<std::string>& hosts);
// The same on ROUTES, TOPOLOGY's routes without a platform model, built once for many placements.
CostParameters cost_parameters(TopologyRoutes& routes, const Topology& topology, const std::vector<std::string>& hosts);

// The same for the route between two ranks of one node: the first node holding two of HOSTS.
// nullopt when no node holds two.
std::optional<CostParameters> intra_node_cost_parameters(const Topology& topology,
                                                         const std::vector<std::string>& hosts);
std::optional<CostParameters> intra_node_cost_parameters(TopologyRoutes& routes, const Topology& topology,
                                                         const std::vector<std::string>& hosts);

}  // namespace ringsim
