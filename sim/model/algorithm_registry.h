// The launcher's one registry of the allreduce algorithms: a typed row per algorithm of the catalog
// (sim/rank/algorithm_catalog.h), found once by its name, which the rest of the launcher asks instead
// of comparing names: its family, the placements it runs on, whether it needs SMPI, how its ring is
// laid, which closed form applies and which of NCCL's algorithms it asks for. No file outside this
// one, its .cpp and sim/rank compares an algorithm's name (tests/style/check_algorithm_names.py).
#pragma once

#include "../rank/algorithm_catalog.h"
#include "../rank/collective_catalog.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// One per entry of kAlgorithmCatalog, in its order, then one per entry of kCollectiveOnlyAlgorithms.
enum class AlgorithmId {
  ring,
  ring_pipelined,
  ring_pipelined_64KiB,
  ring_bidir,
  parameter_server,
  parameter_server_2,
  parameter_server_4,
  parameter_server_all,
  reduce_bcast,
  recursive_doubling,
  rabenseifner,
  hierarchical,
  nccl_ring,
  nccl_tree,
  nccl_nvls,
  nccl_nvls_tree,
  nccl,
  mpi,
  binomial,  // collective_catalog.h: algorithms of the other collectives only
  chain,
  pairwise,
  linear,
  nccl_p2p,
  nccl_pat,
};

enum class AlgorithmFamily {
  baidu_ring,     // the baidu ring and its variants (pipelined, bidirectional), laid in rank order
  mpi_algorithm,  // the other MPI algorithms ringsim's rank program runs (servers, trees, halving, Horovod's)
  nccl,           // NCCL's algorithms, each with its NcclRequest
  mpi_library,    // the MPI library's own MPI_Allreduce (`mpi`)
};

// Which of NCCL's algorithms a scenario names (nccl_ring, nccl_tree, nccl_nvls, nccl_nvls_tree), or
// `nccl`: what NCCL's model picks at each size.
enum class NcclRequest { ring, tree, nvls, nvls_tree, choice, p2p, pat };

// The closed form of sim/analysis/algorithm_costs.h that applies. NCCL's algorithms have NCCL's own
// time model (sim/nccl) instead, so none there beyond one rank; the MPI library's has none (its traffic
// is unknown).
enum class ClosedForm {
  none,
  nccl_model,
  ring,
  segmented_ring,
  parameter_server,
  reduce_bcast,
  recursive_doubling,
  rabenseifner,
  hierarchical,
  collective,  // an algorithm of the collectives other than all_reduce: sim/analysis/collective_costs.h
};

struct AlgorithmRow {
  AlgorithmId id;
  AlgorithmFamily family;
  ClosedForm closed_form;
  std::optional<NcclRequest> nccl_request;  // NCCL's algorithms only: the rank program takes NCCL's plan
  // Its ring (where it has one) visits the ranks in rank order; NCCL's visit them node by node
  // (node-contiguous), whatever the rank order.
  bool lays_rank_order_ring;
  bool smpi_only;  // the MPI library's own allreduce exists under SMPI alone

  const AlgorithmInfo& info() const {
    const auto index = static_cast<std::size_t>(id);
    return index < kAlgorithmCatalog.size() ? kAlgorithmCatalog[index] : kCollectiveOnlyAlgorithms[index - kAlgorithmCatalog.size()];
  }
  std::string_view name() const { return info().name; }
  AlgorithmInfo::Placements placements() const { return info().placements; }
};

// A scenario's algorithms when it names none.
inline constexpr AlgorithmId kDefaultAlgorithm = AlgorithmId::ring;

// nullptr for a name not in the catalog (e.g. a results file's row of another version).
const AlgorithmRow* find_algorithm_row(std::string_view name);
// The row of a name already validated against the catalog (a scenario's); throws std::logic_error otherwise.
const AlgorithmRow& algorithm_row(std::string_view name);
const AlgorithmRow& algorithm_row(AlgorithmId id);
std::string algorithm_name(AlgorithmId id);

// Whether NAME is the catalog's name of ID (false for a name not in the catalog).
bool names_algorithm(std::string_view name, AlgorithmId id);
// Whether NAME is one of NCCL's algorithms, and which (nullopt: not one of NCCL's).
bool is_nccl_algorithm(std::string_view name);
std::optional<NcclRequest> nccl_request_of(std::string_view name);

// The algorithm that simulates what NCCL's log calls NCCL_ALGO (Ring, Tree, NVLS, NVLSTree); nullptr for
// one ringsim does not model (CollNet, ...).
const AlgorithmRow* algorithm_of_nccl_algo(std::string_view nccl_algo);

}  // namespace ringsim
