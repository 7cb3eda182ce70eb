// The launcher's registry of algorithms (sim/model/algorithm_registry.h): a row per catalogued name,
// found by it, and the questions the rest of the launcher asks instead of comparing names.
#include "../../sim/model/algorithm_registry.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

using namespace ringsim;

TEST_CASE("algorithm registry: every catalogued name finds its own row, and an unknown one none") {
  for (const AlgorithmInfo& info : kAlgorithmCatalog) {
    const std::string name(info.name);
    CAPTURE(name);
    const AlgorithmRow* row = find_algorithm_row(name);
    REQUIRE(row != nullptr);
    CHECK(row->name() == name);
    CHECK(&algorithm_row(name) == row);
    CHECK(&algorithm_row(row->id) == row);
    CHECK(names_algorithm(name, row->id));
    // NCCL's family and its request go together; only they lay their ring node by node.
    CHECK((row->family == AlgorithmFamily::nccl) == row->nccl_request.has_value());
    CHECK(row->lays_rank_order_ring == !row->nccl_request.has_value());
    CHECK(row->smpi_only == (row->family == AlgorithmFamily::mpi_library));
  }
  CHECK(find_algorithm_row("ring_of_fire") == nullptr);
  CHECK_FALSE(names_algorithm("ring_of_fire", AlgorithmId::ring));
  CHECK_THROWS_AS(algorithm_row("ring_of_fire"), std::logic_error);
  CHECK(algorithm_name(kDefaultAlgorithm) == "ring");
}

TEST_CASE("algorithm registry: the families, closed forms and NCCL requests of a few") {
  CHECK(algorithm_row("ring_bidir").family == AlgorithmFamily::baidu_ring);
  CHECK(algorithm_row("ring_pipelined_64KiB").closed_form == ClosedForm::segmented_ring);
  CHECK(algorithm_row("parameter_server_all").closed_form == ClosedForm::parameter_server);
  CHECK(algorithm_row("hierarchical").closed_form == ClosedForm::hierarchical);
  CHECK(algorithm_row("nccl").nccl_request == NcclRequest::choice);
  CHECK(nccl_request_of("nccl_tree") == NcclRequest::tree);
  CHECK_FALSE(is_nccl_algorithm("rabenseifner"));
  CHECK(algorithm_row("mpi").closed_form == ClosedForm::none);
  CHECK(algorithm_row("nccl_nvls").placements() == AlgorithmInfo::Placements::one_node);
}

TEST_CASE("algorithm registry: NCCL_ALGO's names in NCCL's logs map to the algorithms that simulate them") {
  const AlgorithmRow* ring = algorithm_of_nccl_algo("Ring");
  const AlgorithmRow* tree = algorithm_of_nccl_algo("Tree");
  const AlgorithmRow* nvls = algorithm_of_nccl_algo("NVLS");
  const AlgorithmRow* nvls_tree = algorithm_of_nccl_algo("NVLSTree");
  REQUIRE(ring != nullptr);
  REQUIRE(tree != nullptr);
  REQUIRE(nvls != nullptr);
  REQUIRE(nvls_tree != nullptr);
  CHECK(ring->id == AlgorithmId::nccl_ring);
  CHECK(tree->id == AlgorithmId::nccl_tree);
  CHECK(nvls->id == AlgorithmId::nccl_nvls);
  CHECK(nvls_tree->id == AlgorithmId::nccl_nvls_tree);
  CHECK(algorithm_of_nccl_algo("CollNetDirect") == nullptr);
}
