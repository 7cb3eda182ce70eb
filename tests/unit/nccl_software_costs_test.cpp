// NCCL's software costs (sim/nccl/tuning/nccl_software_costs.h): the steps each algorithm takes in a
// row, the cost a call spends, the model key that sets them and the rank program's argument.
#include "../../sim/model/model_settings.h"
#include "../../sim/nccl/tuning/nccl_software_costs.h"
#include "../../sim/rank/rank_options.h"
#include "../../sim/validate/software_cost_calibration.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace ringsim;

TEST_CASE("nccl software costs: the steps of each algorithm by kind of hop") {
  // A ring of 16 ranks takes 2 x 15 steps; across 2 nodes each has a network hop.
  const NcclCallSteps ring_two_nodes = nccl_call_steps(NcclAlgorithmKind::ring, 16, 2);
  CHECK(ring_two_nodes.intra == 0);
  CHECK(ring_two_nodes.net == 30);
  const NcclCallSteps ring_one_node = nccl_call_steps(NcclAlgorithmKind::ring, 8, 1);
  CHECK(ring_one_node.intra == 14);
  CHECK(ring_one_node.net == 0);
  // The tree: up and down a chain of 4 ranks per node and a tree of depth ceil(log2 5) = 3 between 5 nodes.
  const NcclCallSteps tree = nccl_call_steps(NcclAlgorithmKind::tree, 20, 5);
  CHECK(tree.intra == 6);
  CHECK(tree.net == 6);
  const NcclCallSteps nvls = nccl_call_steps(NcclAlgorithmKind::nvls, 8, 1);
  CHECK(nvls.intra == 2);
  CHECK(nvls.net == 0);
  const NcclCallSteps nvls_tree = nccl_call_steps(NcclAlgorithmKind::nvls_tree, 16, 2);
  CHECK(nvls_tree.intra == 2);
  CHECK(nvls_tree.net == 2);
}

TEST_CASE("nccl software costs: a call spends its cost plus each step's, by kind of hop and network path") {
  NcclSoftwareCosts costs;
  costs.call_s = 10e-6;
  costs.nvlink_step_s = 1e-6;
  costs.pcie_step_s = 2e-6;
  costs.net_step_s = {4e-6, 5e-6, 6e-6};
  // Ring over 2 NVLink nodes of 8 on EFA (the OFI plugin): 10 + 30 x 5 us.
  const NcclCallShape ring{NcclAlgorithmKind::ring, NcclWire::simple, 0, 16, 2};
  CHECK(nccl_software_cost_s(costs, ring, true, nccl_net_path(NicTransport::efa)) == doctest::Approx(160e-6));
  // Tree over 4 PCIe nodes of 8 on RoCE (verbs): 10 + 14 x 2 + 4 x 4 us.
  const NcclCallShape tree{NcclAlgorithmKind::tree, NcclWire::ll, 0, 32, 4};
  CHECK(nccl_software_cost_s(costs, tree, false, nccl_net_path(NicTransport::roce)) == doctest::Approx(54e-6));
  // One NVLink node pays no network step, whatever the path: 10 + 14 x 1 us.
  const NcclCallShape one_node{NcclAlgorithmKind::ring, NcclWire::simple, 0, 8, 1};
  CHECK(nccl_software_cost_s(costs, one_node, true, NcclNetPath::socket) == doctest::Approx(24e-6));
  CHECK(nccl_net_path(NicTransport::ib) == NcclNetPath::verbs);
  CHECK(nccl_net_path(NicTransport::cxi) == NcclNetPath::ofi);
  CHECK(nccl_net_path(NicTransport::tcp) == NcclNetPath::socket);
}

TEST_CASE("nccl software costs: a ring's or tree's cost per GB of the buffer under the protocol that ran, on top of the call's and the steps'") {
  NcclSoftwareCosts costs;
  costs.call_s = 10e-6;
  costs.net_step_s = {4e-6, 5e-6, 6e-6};
  costs.per_gb_s = {0, 5e-3, 1e-3};  // none under LL, 5 ms per GB under LL128, 1 ms under Simple
  // 4 GB under Simple, ring over 2 nodes of 8 on EFA: 10 + 30 x 5 + 4 x 1000 us = 4160 us.
  const NcclCallShape simple{NcclAlgorithmKind::ring, NcclWire::simple, 4'000'000'000, 16, 2};
  const double simple_s = nccl_software_cost_s(costs, simple, true, NcclNetPath::ofi);
  CHECK(std::abs(simple_s / 4160e-6 - 1) < 1e-12);
  // 2 MB under LL128: 10 + 30 x 5 + 0.002 x 5000 us = 170 us.
  const NcclCallShape ll128{NcclAlgorithmKind::ring, NcclWire::ll128, 2'000'000, 16, 2};
  const double ll128_s = nccl_software_cost_s(costs, ll128, true, NcclNetPath::ofi);
  CHECK(std::abs(ll128_s / 170e-6 - 1) < 1e-12);
  // LL pays none per GB: 10 + 30 x 5 us.
  const NcclCallShape ll{NcclAlgorithmKind::ring, NcclWire::ll, 4'000'000, 16, 2};
  const double ll_s = nccl_software_cost_s(costs, ll, true, NcclNetPath::ofi);
  CHECK(std::abs(ll_s / 160e-6 - 1) < 1e-12);
  // An NVLS tree under Simple pays none per GB either: 10 + 2 x 5 us.
  const NcclCallShape nvls_tree{NcclAlgorithmKind::nvls_tree, NcclWire::simple, 4'000'000'000, 16, 2};
  const double nvls_tree_s = nccl_software_cost_s(costs, nvls_tree, true, NcclNetPath::ofi);
  CHECK(std::abs(nvls_tree_s / 20e-6 - 1) < 1e-12);
}

TEST_CASE("nccl software costs: another collective pays NCCL's steps for its function and per GB what each rank moves against an all-reduce") {
  NcclSoftwareCosts costs;
  costs.call_s = 10e-6;
  costs.net_step_s = {4e-6, 5e-6, 6e-6};
  costs.per_gb_s = {0, 5e-3, 1e-3};
  const auto cost_of = [&](Collective collective) {
    const NcclCallShape call{NcclAlgorithmKind::ring, NcclWire::simple, 4'000'000'000, 16, 2, collective};
    return nccl_software_cost_s(costs, call, true, NcclNetPath::ofi);
  };
  // All-reduce over 2 nodes of 8: 10 + 30 x 5 us + 4 GB x 1 ms.
  CHECK(std::abs(cost_of(Collective::all_reduce) / 4160e-6 - 1) < 1e-12);
  // All-gather: N-1 = 15 steps; each rank moves 15/16 of 4 GB against an all-reduce's 30/16: half, 2 ms.
  CHECK(std::abs(cost_of(Collective::all_gather) / (10e-6 + 15 * 5e-6 + 2e-3) - 1) < 1e-12);
  CHECK(std::abs(cost_of(Collective::reduce_scatter) / cost_of(Collective::all_gather) - 1) < 1e-12);
  // Broadcast: N = 16 steps (tuning.cc nsteps); each rank moves the buffer: 4 x 16/30 ms.
  CHECK(std::abs(cost_of(Collective::broadcast) / (10e-6 + 16 * 5e-6 + 4e-3 * 16 / 30) - 1) < 1e-12);
  // sendrecv: one round, the buffer each way: 10 + 5 us + 4 x 16/30 ms.
  CHECK(std::abs(cost_of(Collective::sendrecv) / (10e-6 + 5e-6 + 4e-3 * 16 / 30) - 1) < 1e-12);
  // One rank moves nothing: the call's cost alone.
  const NcclCallShape alone{NcclAlgorithmKind::ring, NcclWire::simple, 4'000'000'000, 1, 1, Collective::all_gather};
  CHECK(nccl_software_cost_s(costs, alone, true, NcclNetPath::ofi) == doctest::Approx(10e-6));
}

TEST_CASE("nccl software costs: the model key sets them, by kind or for all, and errors name the path") {
  const ModelSettings model = read_model(
      nlohmann::json::parse(
          R"({"nccl": {"software": {"call": "12us", "intra_step": "1us", "net_step": {"ofi": "7us"}, "per_gb": {"Simple": "900us"}}}})"),
      "m.json", "/model", ModelSettings{});
  REQUIRE(model.nccl.has_value());
  const NcclSoftwareCosts& costs = model.nccl->software;
  CHECK(costs.call_s == doctest::Approx(12e-6));
  CHECK(costs.nvlink_step_s == doctest::Approx(1e-6));
  CHECK(costs.pcie_step_s == doctest::Approx(1e-6));
  CHECK(costs.net_step_s[static_cast<std::size_t>(NcclNetPath::ofi)] == doctest::Approx(7e-6));
  const auto verbs = static_cast<std::size_t>(NcclNetPath::verbs);
  CHECK(costs.net_step_s[verbs] == nccl_learned_software_costs().net_step_s[verbs]);  // the others keep the defaults
  CHECK(costs.per_gb_s[static_cast<std::size_t>(NcclWire::simple)] == doctest::Approx(900e-6));
  const auto ll128 = static_cast<std::size_t>(NcclWire::ll128);
  CHECK(costs.per_gb_s[ll128] == nccl_learned_software_costs().per_gb_s[ll128]);
  // Written back as read: the results' model reads again to the same costs.
  const ModelSettings again = read_model(model.to_json(), "r.json", "/model", ModelSettings{});
  CHECK(again.nccl->software == costs);
  try {
    read_model(nlohmann::json::parse(R"({"nccl": {"software": {"call": "12 parsecs"}}})"), "m.json", "/model", ModelSettings{});
    FAIL("accepted a latency that is none");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("m.json: /model/nccl/software/call") != std::string::npos);
  }
  try {
    read_model(nlohmann::json::parse(R"({"nccl": {"software": {"net_step": {"verb": "1us"}}}})"), "m.json", "/model", ModelSettings{});
    FAIL("accepted an unknown network path");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("verbs") != std::string::npos);
  }
}

TEST_CASE("nccl software costs: the rank program takes one cost per size") {
  std::vector<std::string> words{"ringsim-rank", "--sizes", "64,128", "--out", "r.json", "--nccl-software", "12.5,40"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  RankOptions options;
  CHECK(parse_rank_options(static_cast<int>(argv.size()), argv.data(), 4, options).empty());
  CHECK(options.nccl_for(0).software_s == doctest::Approx(12.5e-6));
  CHECK(options.nccl_for(1).software_s == doctest::Approx(40e-6));
  words[6] = "-1";
  argv.clear();
  for (std::string& word : words) argv.push_back(word.data());
  RankOptions refused;
  CHECK(parse_rank_options(static_cast<int>(argv.size()), argv.data(), 4, refused).find("--nccl-software") != std::string::npos);
}

// calibrate's fit of one cluster's terms: samples made from known costs (measured = the simulation at
// zero cost + the cost) give them back: 8 ranks on one node, 16 and 32 on 2 and 4 nodes.
TEST_CASE("calibrate's software cost fit recovers a cluster's call and step costs") {
  const SoftwareCostTerms truth{22e-6, 0, 7.5e-6};
  std::vector<SoftwareCostSample> samples;
  for (int ranks : {8, 16, 32})
    for (double zero_cost_s : {10e-6, 40e-6, 300e-6, 5e-3}) {
      const NcclCallSteps steps = nccl_call_steps(NcclAlgorithmKind::ring, ranks, ranks / 8);
      samples.push_back({zero_cost_s + software_cost_s(truth, steps), zero_cost_s, steps});
    }
  const SoftwareCostTerms fitted = fit_software_cost_terms(samples);
  CHECK(std::abs(fitted.call_s / truth.call_s - 1) < 1e-9);
  CHECK(std::abs(fitted.net_step_s / truth.net_step_s - 1) < 1e-9);
  CHECK(fitted.intra_step_s < 1e-12);  // one node's 14 steps inside it cost nothing in the samples
}

TEST_CASE("calibrate's software cost fit never goes negative") {
  // Runs faster than the simulation without any cost: the best non-negative costs are none.
  std::vector<SoftwareCostSample> samples;
  for (double zero_cost_s : {10e-6, 40e-6, 300e-6}) samples.push_back({0.9 * zero_cost_s, zero_cost_s, {0, 30}});
  const SoftwareCostTerms fitted = fit_software_cost_terms(samples);
  CHECK(fitted.call_s == 0);
  CHECK(fitted.net_step_s == 0);
}

TEST_CASE("calibrate's software cost fit takes the simplest of the costs that fit alike") {
  // One placement (16 ranks on 2 NVLink nodes) runs a tree at small sizes and a ring at large: two
  // step counts (14 inside and 2 across nodes; 0 and 30), so a cost per call and per network step fits
  // as well as a step inside nodes and one across them. The call and the network step are written.
  const SoftwareCostTerms truth{40e-6, 0, 5e-6};
  std::vector<SoftwareCostSample> samples;
  for (double zero_cost_s : {20e-6, 60e-6, 90e-6})
    samples.push_back({zero_cost_s + software_cost_s(truth, {14, 2}), zero_cost_s, {14, 2}});
  for (double zero_cost_s : {400e-6, 2e-3, 9e-3})
    samples.push_back({zero_cost_s * 1.001 + software_cost_s(truth, {0, 30}), zero_cost_s, {0, 30}});
  const SoftwareCostTerms fitted = fit_software_cost_terms(samples);
  CHECK(fitted.intra_step_s == 0);
  CHECK(fitted.call_s > 0);
  CHECK(fitted.net_step_s > 0);
}
