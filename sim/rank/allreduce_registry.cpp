// The one table from algorithm name to code, as SMPI's colls registers its allreduce variants.
// Parameterized variants take their parameter from the catalog entry of the same name.
#include "algorithm_catalog.h"
#include "allreduce.h"

#include <utility>

namespace ringsim {
namespace {

constexpr int servers_of(std::string_view name) { return find_algorithm_info(name)->servers; }
constexpr std::uint64_t segment_bytes_of(std::string_view name) { return find_algorithm_info(name)->segment_bytes; }

template <int Servers>
void parameter_server_with(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  parameter_server_allreduce(input, output, count, ctx, Servers);
}

template <std::uint64_t SegmentBytes>
void ring_pipelined_with(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ring_pipelined_allreduce(input, output, count, ctx, SegmentBytes);
}

constexpr std::pair<std::string_view, AllreduceAlgorithm> kAllreduceTable[] = {
    {"ring", {&ring_allreduce, true}},
    {"ring_pipelined", {&ring_pipelined_with<segment_bytes_of("ring_pipelined")>, true}},
    {"ring_pipelined_64KiB", {&ring_pipelined_with<segment_bytes_of("ring_pipelined_64KiB")>, true}},
    {"ring_bidir", {&ring_bidir_allreduce, true}},
    {"parameter_server", {&parameter_server_with<servers_of("parameter_server")>, true}},
    {"parameter_server_2", {&parameter_server_with<servers_of("parameter_server_2")>, true}},
    {"parameter_server_4", {&parameter_server_with<servers_of("parameter_server_4")>, true}},
    {"parameter_server_all", {&parameter_server_with<servers_of("parameter_server_all")>, true}},
    {"reduce_bcast", {&reduce_bcast_allreduce, true}},
    {"recursive_doubling", {&recursive_doubling_allreduce, true}},
    {"rabenseifner", {&rabenseifner_allreduce, true}},
    {"hierarchical", {&hierarchical_allreduce, true, true}},
    {"nccl_ring", {&nccl_ring_allreduce, true, true}},
    {"nccl_tree", {&nccl_tree_allreduce, true, true}},
    {"nccl_nvls", {&nccl_nvls_allreduce, true, true}},
    {"nccl_nvls_tree", {&nccl_nvls_tree_allreduce, true, true}},
    {"nccl", {&nccl_allreduce, true, true}},
    {"mpi", {&mpi_allreduce, false}},
};

static_assert(std::size(kAllreduceTable) == kAlgorithmCatalog.size(),
              "every algorithm in algorithm_catalog.h needs an entry here, and no more");

constexpr bool table_matches_catalog() {
  for (std::size_t i = 0; i < kAlgorithmCatalog.size(); ++i)
    if (kAllreduceTable[i].first != kAlgorithmCatalog[i].name) return false;
  return true;
}
static_assert(table_matches_catalog(), "the table lists the catalog's names in the catalog's order");

}  // namespace

AllreduceAlgorithm find_allreduce(std::string_view name) {
  for (const auto& [known, algorithm] : kAllreduceTable)
    if (known == name) return algorithm;
  return {};
}

}  // namespace ringsim
