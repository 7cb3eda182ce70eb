// Why an NCCL case takes its time (sim/analysis/nccl_case_explanation.h): NCCL's choice per band of
// sizes, the binding resource and its sharers, and latency- against bandwidth-bound, against values
// worked by hand from the topologies' NIC rates and NCCL's model's latency + size / bandwidth.
#include "../../sim/analysis/nccl_case_explanation.h"
#include "../../sim/platform/topology.h"

#include <cmath>
#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// MODEL under NCCL 2.23 on TOPOLOGY's facts, as variant_plan.cpp prepares a scenario's (unshaped:
// the NICs at their line rate).
ModelSettings model_on(const Topology& topology) {
  ModelSettings model;
  model.network = "NCCL";
  model.nccl = NcclSettings{};
  model.nccl->set_version({2, 23});
  model.adopt_topology_gpus(topology);
  model.nccl_facts = nccl_topology_facts(topology);
  return model;
}

// A case of ALGORITHM on PLACEMENT with one simulated time per size (1 ms each).
CaseResult case_of(const ModelSettings& model, const PlacementSpec& placement, const std::string& algorithm,
                   const std::vector<std::uint64_t>& sizes) {
  CaseResult result;
  result.spec.placement = placement;
  result.spec.algorithm = algorithm;
  result.spec.nccl = std::make_shared<const NcclPlan>(*plan_nccl_case(model, placement, algorithm));
  result.ranks = placement.total_ranks();
  for (std::uint64_t bytes : sizes) result.sizes.push_back(SizeResult{bytes, {1e-3}, 0});
  return result;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); }

constexpr std::uint64_t kGiB = 1ULL << 30;

}  // namespace

TEST_CASE("NCCL's ring on 4-4-4-4 H100: a NIC binds, 2 of 8 channels on it, bus = 4 NICs x 50 GB/s, bandwidth-bound at 1 GiB") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  const ModelSettings model = model_on(topology);
  const auto explanation = explain_nccl_case(case_of(model, PlacementSpec{{4, 4, 4, 4}}, "nccl_ring", {kGiB}), model);
  REQUIRE(explanation);
  REQUIRE(explanation->bands.size() == 1);
  const NcclBand band = explanation->bands.front();
  CHECK(nccl_choice_text(band.choice) == "Ring/Simple");
  CHECK(band.binding.kind == "NIC");
  CHECK(band.binding.link.find("-nic") != std::string::npos);
  // 4 search channels (one per NIC beside the ranks), 8 run; each NIC direction carries 2 of them.
  CHECK(band.binding.sharers == 2);
  CHECK(band.binding.of == 8);
  CHECK(near(band.binding.bus_bandwidth_Bps, 4 * 50e9));
  // NCCL's model: S x 2(N-1)/N / bus = 2^30 x 30/16 / 200 GB/s = 10.066 ms, far above its latency.
  const double transfer = kGiB * 30.0 / 16 / 200e9;
  CHECK(!band.latency_bound);
  CHECK(near(band.bound_share, transfer / (transfer + band.choice.prediction.latency_s)));
  CHECK(band.bound_share > 0.97);  // latency about 0.24 ms of 10.3
  CHECK(near(band.simulated_s, 1e-3));
}

TEST_CASE("NCCL on 8-8 H100: Tree/LL latency-bound at 64 KiB, the NVLS tree at 1 GiB, NVLink-bound, beats the ring") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/h100-10x8-rails.json");
  const ModelSettings model = model_on(topology);
  const auto explanation = explain_nccl_case(case_of(model, PlacementSpec{{8, 8}}, "nccl", {64 << 10, kGiB}), model);
  REQUIRE(explanation);
  REQUIRE(explanation->bands.size() == 2);
  const NcclBand small = explanation->bands.front(), large = explanation->bands.back();
  CHECK(nccl_choice_text(small.choice) == "Tree/LL");
  CHECK(small.latency_bound);
  CHECK(near(small.bound_share, small.choice.prediction.latency_s / small.choice.prediction.time_s));
  CHECK(nccl_choice_text(large.choice) == "NVLSTree/Simple");
  CHECK(!large.latency_bound);
  CHECK(large.binding.kind == "NVLink port");
  CHECK(large.binding.sharer == "NVLS channels");
  REQUIRE(large.runner_up);
  const NcclChoice runner_up = *large.runner_up;
  CHECK(runner_up.prediction.time_s > large.choice.prediction.time_s);
  // The ranking lists every priced choice, fastest first, the choice itself first.
  const auto ranked = nccl_ranked_choices(*plan_nccl_case(model, PlacementSpec{{8, 8}}, "nccl"), kGiB);
  REQUIRE(ranked.size() >= 2);
  CHECK(nccl_choice_text(ranked[0]) == "NVLSTree/Simple");
  CHECK(nccl_choice_text(ranked[1]) == nccl_choice_text(runner_up));
}

TEST_CASE("p4d-like nodes (4 NICs, each beside two GPUs): the ring's bus is 4 NICs' worth at 8-8 and 2 at 4-4") {
  const Topology topology = load_topology(RINGSIM_SOURCE_DIR "/topologies/aws-p4d-efa-2x8.json");
  const ModelSettings model = model_on(topology);
  const double nic_Bps = 100e9 / 8;
  struct Expected {
    PlacementSpec placement;
    int nics;
  };
  for (const Expected& expected : {Expected{PlacementSpec{{8, 8}}, 4}, Expected{PlacementSpec{{4, 4}}, 2}}) {
    CAPTURE(expected.nics);
    const PlacementSpec placement = expected.placement;
    const auto ring = explain_nccl_case(case_of(model, placement, "nccl_ring", {kGiB}), model);
    REQUIRE(ring);
    const NcclBinding binding = ring->bands.front().binding;
    CHECK(binding.kind == "NIC");
    // 2 x NICs channels, each NIC direction crossed by 2 of them: bus = NICs x 12.5 GB/s.
    CHECK(binding.of == 2 * expected.nics);
    CHECK(binding.sharers == 2);
    CHECK(near(binding.bus_bandwidth_Bps, expected.nics * nic_Bps));
    // The tree between two nodes: one edge per channel, each channel's leaving beside its NIC in turn.
    const auto plan = plan_nccl_case(model, placement, "nccl_tree");
    const NcclBinding tree = nccl_binding(*plan, plan->choice_at(kGiB), *model.nccl_facts, placement);
    CHECK(tree.kind == "NIC");
    CHECK(tree.sharer == "tree edges");
    CHECK(tree.sharers == 2);
  }
}
