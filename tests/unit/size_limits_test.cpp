#include "../../sim/simulate/size_limits.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

Scenario scenario_of(std::vector<int> ranks_per_node, std::string algorithm, std::uint64_t largest) {
  Scenario scenario;
  scenario.file = "s.json";
  scenario.placements = {PlacementSpec{std::move(ranks_per_node)}};
  scenario.algorithms = {std::move(algorithm)};
  scenario.sizes = {1u << 20, largest};
  return scenario;
}

}  // namespace

TEST_CASE("sizes up to 64 GiB simulate and larger ones or the mpi algorithm beyond memory are one line before any case") {
  constexpr std::uint64_t kGiB = 1ULL << 30;
  CHECK_NOTHROW(check_simulated_sizes(scenario_of({1, 1}, "ring", 64 * kGiB), 1 * kGiB));
  CHECK_NOTHROW(check_simulated_sizes(scenario_of(std::vector<int>(64, 1), "nccl_ring", 64 * kGiB), 1 * kGiB));
  CHECK(RINGSIM_ERROR_OF(check_simulated_sizes(scenario_of({1, 1}, "ring", 64 * kGiB + 4), 1 * kGiB))
            .starts_with("s.json: size 68719476740B is beyond the largest ringsim simulates, 64GiB per rank"));
  CHECK(RINGSIM_ERROR_OF(check_simulated_sizes(scenario_of({1, 1}, "mpi", 8 * kGiB), 1000 * kGiB))
            .starts_with("s.json: the mpi algorithm calls MPI_Allreduce with an int count of floats, below 8 GiB"));
  CHECK_NOTHROW(check_simulated_sizes(scenario_of({2, 2}, "mpi", 1 * kGiB), 4 * kGiB));
  CHECK(RINGSIM_ERROR_OF(check_simulated_sizes(scenario_of({2, 2}, "mpi", 1 * kGiB), 3 * kGiB)) ==
        "s.json: the mpi algorithm runs SMPI's own MPI_Allreduce, whose buffers hold real memory: 4 ranks x 1GiB need at "
        "least 4GiB, and this machine has 3.0 GiB available; simulate that size with ring, nccl_ring or another ringsim "
        "algorithm (their buffers take no memory)");
}
