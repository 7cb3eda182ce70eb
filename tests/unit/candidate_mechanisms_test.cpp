// The candidates of `validate --explain`: which the log's INFO lines confirm or exclude, what each
// changes, and the scores the ranking uses.
#include "../../sim/validate/candidate_mechanisms.h"
#include "../../sim/validate/run_diagnosis.h"

#include <cmath>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace ringsim {
namespace {

Topology two_nodes(int nics, bool gdr) {
  const nlohmann::json node = {{"name", "n"}, {"count", 2}, {"gpus", 4}, {"nics", nics}, {"nic_transport", "ib"}, {"gdr", gdr},
                               {"nic", {{"bandwidth", "100Gbps"}}}, {"intra", {{"kind", "nvlink"}}}};
  return read_topology_json({{"name", "t"}, {"racks", {{{"name", "r"}, {"nodes", {node}}}}}}, "t.json");
}

const CandidateStanding& standing(const std::vector<CandidateStanding>& all, MechanismId id) {
  for (const CandidateStanding& one : all)
    if (one.candidate->id == id) return one;
  throw std::logic_error("no such candidate");
}

NcclNetworkHop hop(int device, bool gdr) {
  NcclNetworkHop h;
  h.device = device;
  h.gdr = gdr;
  return h;
}

TEST_CASE("a log whose hops show GDRDMA excludes GDR off and one whose hops lack it confirms it") {
  NcclRunFacts facts;
  facts.network_hops = {hop(0, true), hop(1, true)};
  const auto with_gdr = candidate_standings(two_nodes(4, true), ModelSettings{}, &facts);
  CHECK(standing(with_gdr, MechanismId::gdr_off).log == LogStanding::excluded);
  CHECK_FALSE(standing(with_gdr, MechanismId::gdr_off).in_play());
  facts.network_hops = {hop(0, false), hop(1, false)};
  const auto staged = candidate_standings(two_nodes(4, true), ModelSettings{}, &facts);
  CHECK(standing(staged, MechanismId::gdr_off).log == LogStanding::confirmed);
  // 2 NICs of 4 in use confirm half the NICs; no log leaves every candidate silent.
  CHECK(standing(staged, MechanismId::half_nics).log == LogStanding::confirmed);
  const auto silent = candidate_standings(two_nodes(4, true), ModelSettings{}, nullptr);
  for (const CandidateStanding& one : silent) CHECK(one.log == LogStanding::silent);
}

TEST_CASE("candidates that change nothing are not applicable: one NIC and no GDR and no rails") {
  const auto standings = candidate_standings(two_nodes(1, false), ModelSettings{}, nullptr);
  CHECK_FALSE(standing(standings, MechanismId::half_nics).applicable);
  CHECK_FALSE(standing(standings, MechanismId::gdr_off).applicable);
  CHECK_FALSE(standing(standings, MechanismId::pxn_off).applicable);
  CHECK(standing(standings, MechanismId::oversubscribed_switch).applicable);
  NcclRunFacts facts;
  facts.channels = 8;  // 8 channels listed exclude 2
  CHECK(standing(candidate_standings(two_nodes(1, false), ModelSettings{}, &facts), MechanismId::two_channels).log ==
        LogStanding::excluded);
}

TEST_CASE("a run inside one node leaves out every candidate of the network between nodes, and keeps 2 channels") {
  const auto one_node = candidate_standings(two_nodes(4, true), ModelSettings{}, nullptr, false);
  for (MechanismId id : {MechanismId::half_nics, MechanismId::gdr_off, MechanismId::oversubscribed_switch, MechanismId::pxn_off}) {
    CAPTURE(static_cast<int>(id));
    CHECK_FALSE(standing(one_node, id).applicable);
    CHECK(standing(one_node, id).reason == "the run stays inside one node");
  }
  CHECK(standing(one_node, MechanismId::two_channels).in_play());
  // The same topology, crossing nodes: half the NICs, GDR off and the switch are in play.
  const auto two = candidate_standings(two_nodes(4, true), ModelSettings{}, nullptr, true);
  CHECK(standing(two, MechanismId::half_nics).in_play());
  CHECK(standing(two, MechanismId::gdr_off).in_play());
  CHECK(standing(two, MechanismId::oversubscribed_switch).in_play());
}

TEST_CASE("each change: NICs halved and staging and 2 channels and the switch at half its ports total") {
  Topology topology = two_nodes(4, true);
  ModelSettings model;
  apply_mechanism(MechanismId::half_nics, topology, model);
  CHECK(topology.racks[0].nodes[0].nics == 2);
  apply_mechanism(MechanismId::gdr_off, topology, model);
  CHECK_FALSE(topology.racks[0].nodes[1].gdr);
  CHECK(topology.racks[0].nodes[1].host_pcie.bandwidth_Bps == 12e9);  // NVLink nodes stage over their own PCIe
  apply_mechanism(MechanismId::two_channels, topology, model);
  CHECK(model.nccl->channels == 2);
  Topology full = two_nodes(4, true);
  apply_mechanism(MechanismId::oversubscribed_switch, full, model);
  const double ports = 2 * 4 * 100e9 / 8;  // 2 nodes x 4 NICs of 100 Gbit/s
  CHECK(std::abs(full.racks[0].switch_link.bandwidth_Bps / (ports / 2) - 1) < 1e-12);
  CHECK_FALSE(full.racks[0].switch_nonblocking);
}

Validation two_sizes(double small_ratio, double large_ratio) {
  Validation validation;
  validation.cases.push_back({"1-1", 2, {}});
  validation.cases[0].sizes.push_back({"1-1", "block", 2, 1024, 10e-6, 10e-6 * small_ratio});
  validation.cases[0].sizes.push_back({"1-1", "block", 2, 1 << 30, 1.0, large_ratio});
  return validation;
}

TEST_CASE("the score weighs the smaller and the larger half alike and the per-call cost is fitted at the smallest sizes") {
  const FitScores scores = fit_scores(two_sizes(1.0, 0.5), 0);
  CHECK(scores.small == 0);
  CHECK(std::abs(scores.large - std::log(2.0)) < 1e-12);
  CHECK(std::abs(scores.all - std::log(2.0) / 2) < 1e-12);
  // The simulation 4 us short at 1 KiB: 4 us per call (the median of the one or two smallest sizes' gaps).
  Validation short_call = two_sizes(0.6, 1.0);
  short_call.cases[0].sizes.pop_back();
  CHECK(std::abs(fitted_call_cost_s(short_call, 0) - 4e-6) < 1e-15);
  const Validation fixed = with_call_cost(short_call, 4e-6, ValidationOptions{});
  CHECK(std::abs(fixed.cases[0].sizes[0].simulated_s - 10e-6) < 1e-15);
}

// 1 KiB in 10 us, and 256 MiB, 512 MiB and 1 GiB each measured at 2^30 B/s (2 ranks, all-reduce:
// busbw = algbw), simulated RATE times as fast at those three.
Validation levelling_off(double rate) {
  Validation validation;
  validation.cases.push_back({"1-1", 2, {}});
  validation.cases[0].sizes.push_back({"1-1", "block", 2, 1024, 10e-6, 10e-6});
  for (std::uint64_t bytes : {std::uint64_t{1} << 28, std::uint64_t{1} << 29, std::uint64_t{1} << 30}) {
    const double measured = static_cast<double>(bytes) / double(1 << 30);
    validation.cases[0].sizes.push_back({"1-1", "block", 2, bytes, measured, measured / rate});
  }
  return validation;
}

TEST_CASE("the rate ceiling is the measured busbw of the three largest sizes, and caps only the sizes it binds") {
  const Validation fast = levelling_off(2.0);
  const auto ceiling = fitted_rate_ceiling(fast, Collective::all_reduce, 0);
  REQUIRE(ceiling);
  CHECK(std::abs(ceiling->busbw_Bps - double(1 << 30)) < 1e-3);
  CHECK(std::abs(ceiling->hardware_busbw_Bps - 2.0 * double(1 << 30)) < 1e-3);
  const Validation capped = with_rate_ceiling(fast, ceiling->busbw_Bps, Collective::all_reduce, ValidationOptions{});
  CHECK(capped.cases[0].sizes[0].simulated_s == fast.cases[0].sizes[0].simulated_s);  // 1 KiB: latency-bound, untouched
  for (std::size_t i = 1; i < 4; ++i) CHECK(std::abs(capped.cases[0].sizes[i].simulated_s / capped.cases[0].sizes[i].measured_s - 1) < 1e-12);
  // An all-gather's busbw is (N-1)/N of its algbw: the same times cap at half the bus bandwidth.
  CHECK(std::abs(fitted_rate_ceiling(fast, Collective::all_gather, 0)->busbw_Bps - double(1 << 29)) < 1e-3);
  // Within a tenth of the simulated rate, or faster than it, the run has no ceiling.
  CHECK_FALSE(fitted_rate_ceiling(levelling_off(1.05), Collective::all_reduce, 0));
  CHECK_FALSE(fitted_rate_ceiling(levelling_off(0.8), Collective::all_reduce, 0));
}

TEST_CASE("a screened candidate's least final score is half its smaller half's median, known only when that half was screened") {
  CandidateFit baseline;
  baseline.validation = levelling_off(1.0);  // 1 KiB, 256 MiB, 512 MiB, 1 GiB: the smaller half is 1 KiB and 256 MiB
  CandidateFit screened;
  screened.validation.cases.push_back({"1-1", 2, {}});
  screened.validation.cases[0].sizes.push_back({"1-1", "block", 2, 1024, 10e-6, 20e-6});                    // ln 2
  screened.validation.cases[0].sizes.push_back({"1-1", "block", 2, std::uint64_t{1} << 28, 0.25, 0.25 * 4});  // ln 4
  const std::vector<std::uint64_t> both = {1024, std::uint64_t{1} << 28};
  CHECK(std::abs(least_final_score(screened, baseline, both, 0) - (std::log(2.0) + std::log(4.0)) / 4) < 1e-12);
  CHECK(least_final_score(screened, baseline, {1024}, 0) == 0);  // 256 MiB not screened: nothing is known
  // From 512 MiB on, the smaller half is 512 MiB alone, which was not screened.
  CHECK(least_final_score(screened, baseline, both, std::uint64_t{1} << 29) == 0);
}

TEST_CASE("a rate ceiling names the run only when it clearly beats every simulated candidate that explains it") {
  const auto fit = [](std::optional<MechanismId> id, double score) {
    CandidateFit f;
    if (id) f.candidate = &candidate_mechanism(*id);
    f.score = score;
    return f;
  };
  Diagnosis diagnosis;
  diagnosis.ranked = {fit(MechanismId::rate_ceiling, 0.015), fit(MechanismId::half_nics, 0.018), fit(std::nullopt, 0.30)};
  REQUIRE(diagnosis.explaining());
  CHECK(diagnosis.explaining()->candidate->id == MechanismId::half_nics);
  CHECK(diagnosis.alike().size() == 1);  // the ceiling, within kMatchesAlike of half the NICs
  diagnosis.ranked = {fit(MechanismId::rate_ceiling, 0.003), fit(MechanismId::oversubscribed_switch, 0.40), fit(std::nullopt, 0.98)};
  CHECK(diagnosis.explaining()->candidate->id == MechanismId::rate_ceiling);  // the switch does not explain the run
  diagnosis.ranked = {fit(MechanismId::rate_ceiling, 0.003), fit(MechanismId::oversubscribed_switch, 0.10), fit(std::nullopt, 0.98)};
  CHECK(diagnosis.explaining()->candidate->id == MechanismId::rate_ceiling);  // the ceiling beats the switch clearly
}

}  // namespace
}  // namespace ringsim
