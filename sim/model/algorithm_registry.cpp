#include "algorithm_registry.h"

#include <stdexcept>

namespace ringsim {
namespace {

constexpr AlgorithmRow rank_order_row(AlgorithmId id, AlgorithmFamily family, ClosedForm closed_form) {
  return {id, family, closed_form, std::nullopt, true, false};
}
constexpr AlgorithmRow nccl_row(AlgorithmId id, NcclRequest request) {
  return {id, AlgorithmFamily::nccl, ClosedForm::nccl_model, request, false, false};
}

constexpr std::array kAlgorithmRows{
    rank_order_row(AlgorithmId::ring, AlgorithmFamily::baidu_ring, ClosedForm::ring),
    rank_order_row(AlgorithmId::ring_pipelined, AlgorithmFamily::baidu_ring, ClosedForm::segmented_ring),
    rank_order_row(AlgorithmId::ring_pipelined_64KiB, AlgorithmFamily::baidu_ring, ClosedForm::segmented_ring),
    // Two rings, n/2 each: one NIC carries both directions' chunks, n/p per step, as the ring.
    rank_order_row(AlgorithmId::ring_bidir, AlgorithmFamily::baidu_ring, ClosedForm::ring),
    rank_order_row(AlgorithmId::parameter_server, AlgorithmFamily::mpi_algorithm, ClosedForm::parameter_server),
    rank_order_row(AlgorithmId::parameter_server_2, AlgorithmFamily::mpi_algorithm, ClosedForm::parameter_server),
    rank_order_row(AlgorithmId::parameter_server_4, AlgorithmFamily::mpi_algorithm, ClosedForm::parameter_server),
    rank_order_row(AlgorithmId::parameter_server_all, AlgorithmFamily::mpi_algorithm, ClosedForm::parameter_server),
    rank_order_row(AlgorithmId::reduce_bcast, AlgorithmFamily::mpi_algorithm, ClosedForm::reduce_bcast),
    rank_order_row(AlgorithmId::recursive_doubling, AlgorithmFamily::mpi_algorithm, ClosedForm::recursive_doubling),
    rank_order_row(AlgorithmId::rabenseifner, AlgorithmFamily::mpi_algorithm, ClosedForm::rabenseifner),
    rank_order_row(AlgorithmId::hierarchical, AlgorithmFamily::mpi_algorithm, ClosedForm::hierarchical),
    nccl_row(AlgorithmId::nccl_ring, NcclRequest::ring),
    nccl_row(AlgorithmId::nccl_tree, NcclRequest::tree),
    nccl_row(AlgorithmId::nccl_nvls, NcclRequest::nvls),
    nccl_row(AlgorithmId::nccl_nvls_tree, NcclRequest::nvls_tree),
    nccl_row(AlgorithmId::nccl, NcclRequest::choice),
    AlgorithmRow{AlgorithmId::mpi, AlgorithmFamily::mpi_library, ClosedForm::none, std::nullopt, true, true},
    rank_order_row(AlgorithmId::binomial, AlgorithmFamily::mpi_algorithm, ClosedForm::collective),
    rank_order_row(AlgorithmId::chain, AlgorithmFamily::mpi_algorithm, ClosedForm::collective),
    rank_order_row(AlgorithmId::pairwise, AlgorithmFamily::mpi_algorithm, ClosedForm::collective),
    rank_order_row(AlgorithmId::linear, AlgorithmFamily::mpi_algorithm, ClosedForm::collective),
    nccl_row(AlgorithmId::nccl_p2p, NcclRequest::p2p),
    nccl_row(AlgorithmId::nccl_pat, NcclRequest::pat),
};

// The rows follow the catalog (then the collectives' own names) one for one, so a row's name is theirs.
constexpr bool rows_follow_catalog() {
  if (kAlgorithmRows.size() != kAlgorithmCatalog.size() + kCollectiveOnlyAlgorithms.size()) return false;
  for (std::size_t i = 0; i < kAlgorithmRows.size(); ++i)
    if (static_cast<std::size_t>(kAlgorithmRows[i].id) != i) return false;
  return true;
}
static_assert(rows_follow_catalog(), "one row per catalogued algorithm, in the catalog's order");

// NCCL_ALGO's names in NCCL's logs and the algorithm that simulates each.
struct NcclAlgoName {
  std::string_view nccl_algo;
  AlgorithmId id;
};
constexpr NcclAlgoName kNcclAlgoNames[] = {
    {"Ring", AlgorithmId::nccl_ring},
    {"Tree", AlgorithmId::nccl_tree},
    {"NVLS", AlgorithmId::nccl_nvls},
    {"NVLSTree", AlgorithmId::nccl_nvls_tree},
    {"PAT", AlgorithmId::nccl_pat},
};

}  // namespace

const AlgorithmRow* find_algorithm_row(std::string_view name) {
  for (const AlgorithmRow& row : kAlgorithmRows)
    if (row.name() == name) return &row;
  return nullptr;
}

const AlgorithmRow& algorithm_row(std::string_view name) {
  if (const AlgorithmRow* row = find_algorithm_row(name)) return *row;
  throw std::logic_error("algorithm_row: \"" + std::string(name) + "\" is not in the algorithm catalog");
}

const AlgorithmRow& algorithm_row(AlgorithmId id) { return kAlgorithmRows[static_cast<std::size_t>(id)]; }

std::string algorithm_name(AlgorithmId id) { return std::string(algorithm_row(id).name()); }

bool names_algorithm(std::string_view name, AlgorithmId id) {
  const AlgorithmRow* row = find_algorithm_row(name);
  return row != nullptr && row->id == id;
}

std::optional<NcclRequest> nccl_request_of(std::string_view name) {
  const AlgorithmRow* row = find_algorithm_row(name);
  return row == nullptr ? std::nullopt : row->nccl_request;
}

bool is_nccl_algorithm(std::string_view name) { return nccl_request_of(name).has_value(); }

const AlgorithmRow* algorithm_of_nccl_algo(std::string_view nccl_algo) {
  for (const NcclAlgoName& entry : kNcclAlgoNames)
    if (entry.nccl_algo == nccl_algo) return &algorithm_row(entry.id);
  return nullptr;
}

}  // namespace ringsim
