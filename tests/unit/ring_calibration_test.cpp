// `calibrate`'s computation without the binary: a trace made from known a and b gives them back,
// expressed against the route's latency and the NIC's bandwidth.
#include "../../sim/nccl/nccl_plan.h"
#include "../../sim/analysis/algorithm_costs.h"
#include "../../sim/common/input_error.h"
#include "../../sim/validate/latency_calibration.h"
#include "../../sim/validate/ring_calibration.h"
#include "temp_files.h"

#include <doctest/doctest.h>

using namespace ringsim;

namespace {

// One allreduce on N ranks: 2(N-1) steps of a + b * k * S / N, k the busiest NIC direction's edges.
double ring_time_s(double a, double b, int ranks, int edges, std::uint64_t bytes) {
  return 2.0 * (ranks - 1) * (a + b * edges * static_cast<double>(bytes) / ranks);
}

MeasuredCase measured_case(PlacementSpec placement, double a, double b) {
  MeasuredCase measured{placement, {}};
  const int edges = busiest_nic_direction_edges(placement);
  for (std::uint64_t bytes : {1u << 16, 1u << 20, 1u << 24})
    measured.median_time_s[bytes] = ring_time_s(a, b, placement.total_ranks(), edges, bytes);
  return measured;
}

}  // namespace

TEST_CASE("calibrate_ring recovers the per-step latency and bandwidth of an exact ring trace") {
  const double a = 12e-6, b = 1e-9;  // 12 us per step, 1 GB/s per NIC direction
  GroupedTrace grouped;
  grouped.cases.push_back(measured_case({{2, 2}, RankOrder::block}, a, b));    // k = 1
  grouped.cases.push_back(measured_case({{2, 2}, RankOrder::cyclic}, a, b));   // k = 2
  grouped.cases.push_back(measured_case({{4}, RankOrder::block}, a, b));       // one node: not a fit input
  const CalibrationRoute route{.route_latency_s = 6e-6, .fixed_latency_s = 1e-6, .nic_hops = 2, .nic_bandwidth_Bps = 2e9};  // 2 x 2.5 + 1 us

  const RingCalibration calibration = calibrate_ring(route, grouped, 1 << 20, "trace.json", "ring", ModelSettings{});
  REQUIRE(calibration.rows.size() == 4);  // two cases, two sizes at or above 1 MiB
  CHECK(calibration.fit.samples == 4);
  CHECK(calibration.fit.latency_s == doctest::Approx(a).epsilon(1e-6));
  CHECK(calibration.fit.bandwidth_Bps() == doctest::Approx(1 / b).epsilon(1e-6));
  REQUIRE(calibration.nic_latency_s.has_value());
  CHECK(*calibration.nic_latency_s == doctest::Approx((a - 1e-6) / 2).epsilon(1e-6));  // 2 x 5.5 + 1 = 12 us
  CHECK(calibration.nic_efficiency == doctest::Approx((1 / b) / route.nic_bandwidth_Bps).epsilon(1e-6));  // 0.5
  for (const auto& row : calibration.rows) CHECK(row.fitted_s == doctest::Approx(row.measured_s).epsilon(1e-6));
  CHECK(calibration.rows[1].edges == 1);
  CHECK(calibration.rows[2].edges == 2);

  const nlohmann::json model = calibrated_model(calibration, "trace.json", "ringsim", 1 << 20);
  CHECK(model.at("nic_efficiency").get<double>() == doctest::Approx(0.5).epsilon(1e-6));
  CHECK(model.at("nic_latency") == "5.5us");  // a model key that every network model applies (not smpi/lat-factor)
  CHECK_FALSE(model.contains("simgrid"));
  CHECK(model.at("calibration").at("min_bytes") == 1 << 20);
}

TEST_CASE("calibrating nccl_ring counts one edge per NIC direction whatever the rank order") {
  // NCCL's rings are node-contiguous: a cyclic deal crosses each node boundary once per direction too.
  const double a = 3e-6, b = 1e-9;
  GroupedTrace grouped;
  MeasuredCase cyclic{{{2, 2}, RankOrder::cyclic}, {}};
  for (std::uint64_t bytes : {1u << 20, 1u << 24}) cyclic.median_time_s[bytes] = ring_time_s(a, b, 4, 1, bytes);
  grouped.cases.push_back(cyclic);
  const RingCalibration calibration = calibrate_ring({.route_latency_s = 6e-6, .nic_bandwidth_Bps = 2e9}, grouped, 0, "trace.json", "nccl_ring", ModelSettings{});
  REQUIRE(calibration.rows.size() == 2);
  CHECK(calibration.rows[0].edges == 1);
  CHECK(calibration_edges("ring", {{2, 2}, RankOrder::cyclic}, ModelSettings{}) == 2);
  CHECK(calibration_edges("nccl_ring", {{4, 0}, RankOrder::block}, ModelSettings{}) == 0);
  CHECK(calibration.fit.bandwidth_Bps() == doctest::Approx(1 / b).epsilon(1e-6));
  CHECK(calibrated_model(calibration, "trace.json", "nccl-tests", 0).at("calibration").at("algorithm") == "nccl_ring");
  // Its steps are pipelined slices, each paying the route's latency: the step model's a is not one.
  CHECK_FALSE(calibration.nic_latency_s.has_value());
  CHECK_FALSE(calibrated_model(calibration, "trace.json", "nccl-tests", 0).contains("nic_latency"));
}

TEST_CASE("calibrating NCCL on nodes of several NICs counts the busiest NIC direction's share of the channels") {
  // Two p4d nodes: 8 GPUs, 4 NICs each beside two GPUs. NCCL's 8 channels (twice the search's 4) cross
  // each node boundary once per direction, two through each NIC: the busiest NIC direction carries 2/8
  // of the ring, so a trace at 4 x 10 GB/s of bus bandwidth is 10 GB/s per NIC direction, not 40.
  Scenario scenario;
  scenario.topology = std::string(RINGSIM_SOURCE_DIR) + "/topologies/aws-p4d-efa-2x8.json";
  const Platform platform = calibration_platform(scenario);
  ModelSettings model;
  model.nccl_facts = nccl_topology_facts(*platform.topology);
  const PlacementSpec two_nodes{{8, 8}, RankOrder::block};
  CHECK(calibration_edges("nccl", two_nodes, model) == doctest::Approx(0.25));
  CHECK(calibration_edges("nccl_ring", {{4, 4}, RankOrder::block}, model) == doctest::Approx(0.5));  // GPUs 0-3: 2 NICs
  CHECK(calibration_edges("nccl_ring", {{2, 2}, RankOrder::block}, model) == 1);  // GPUs 0-1 share one NIC
  CHECK(calibration_edges("ring", two_nodes, model) == 1);  // the MPI ring: one edge, whatever the NICs
  const double b = 1e-10;  // 10 GB/s per NIC direction
  GroupedTrace grouped;
  MeasuredCase measured{two_nodes, {}};
  for (std::uint64_t bytes : {1u << 24, 1u << 28}) measured.median_time_s[bytes] = ring_time_s(0, b / 4, 16, 1, bytes);
  grouped.cases.push_back(measured);
  const RingCalibration calibration =
      calibrate_ring({.route_latency_s = 2.5e-6, .nic_bandwidth_Bps = 12.5e9}, grouped, 0, "trace.json", "nccl", model);
  CHECK(calibration.fit.bandwidth_Bps() == doctest::Approx(1 / b).epsilon(1e-6));
  CHECK(calibration.nic_efficiency == doctest::Approx(0.8).epsilon(1e-6));
}

TEST_CASE("a trace faster than the topology's NIC is an input error, not an efficiency above 1") {
  GroupedTrace grouped;
  grouped.cases.push_back(measured_case({{2, 2}, RankOrder::block}, 12e-6, 1e-10));  // 10 GB/s on a 2 GB/s NIC
  CHECK_THROWS_WITH_AS(calibrate_ring({.route_latency_s = 6e-6, .nic_bandwidth_Bps = 2e9}, grouped, 0, "trace.json", "ring", ModelSettings{}),
                       doctest::Contains("trace.json: the trace moves 10000 MB/s per NIC direction"), InputError);
}

TEST_CASE("latency_bound_sizes keeps, per case, the smallest sizes whose times stay within 1.25x the smallest") {
  GroupedTrace grouped;
  MeasuredCase measured{{{4, 4}, RankOrder::block}, {}};
  // 4 B - 1 KiB flat around 60 us (an upward wobble of 24% included), then 2 KiB jumps to 200 us; the
  // later sizes, though one of them is back near 60 us, are not latency-bound.
  const std::vector<std::pair<std::uint64_t, double>> times = {{4, 60e-6}, {8, 56e-6}, {16, 69e-6}, {1024, 66e-6},
                                                               {2048, 200e-6}, {4096, 65e-6}, {1 << 20, 700e-6}};
  for (const auto& [bytes, time_s] : times) measured.median_time_s[bytes] = time_s;
  grouped.cases.push_back(measured);
  const auto flat = latency_bound_sizes(grouped);
  REQUIRE(flat.has_value());
  CHECK(flat->sizes == std::vector<std::uint64_t>{4, 8, 16, 1024});
  CHECK(flat->cases.front().median_time_s.size() == 4);
  CHECK(flat->cases.front().median_time_s.count(4096) == 0);

  SUBCASE("a case with fewer than three flat sizes: nothing to fit") {
    MeasuredCase steep{{{4, 4}, RankOrder::cyclic}, {}};
    steep.median_time_s = {{1 << 20, 700e-6}, {2 << 20, 1100e-6}, {4 << 20, 1800e-6}};
    grouped.cases.push_back(steep);
    CHECK_FALSE(latency_bound_sizes(grouped).has_value());
  }
}

TEST_CASE("calibration on two racks expresses the fit against the route over the uplinks and the spine") {
  // Two racks of different nodes: a's NICs 2 us at 10 Gbit/s, b's 4 us at 25 Gbit/s; switches 1 us,
  // uplinks 3 us, the spine 7 us. Between racks: NIC a + switch + uplink + spine + uplink + switch + NIC b.
  const ringsim::testing::TempDir dir;
  const auto topology = dir.write("two-racks.json", R"({"name": "two-racks-mixed", "spine": {"latency": "7us"}, "racks": [
    {"name": "rack0", "switch": {"latency": "1us"}, "uplink": {"bandwidth": "10Gbps", "latency": "3us"},
     "nodes": [{"name": "a", "count": 2, "gpus": 2, "nic": {"bandwidth": "10Gbps", "latency": "2us"}}]},
    {"name": "rack1", "switch": {"latency": "1us"}, "uplink": {"bandwidth": "10Gbps", "latency": "3us"},
     "nodes": [{"name": "b", "count": 2, "gpus": 2, "nic": {"bandwidth": "25Gbps", "latency": "4us"}}]}]})");
  Scenario scenario;
  scenario.topology = topology;
  const Platform platform = calibration_platform(scenario);
  const double a = 40e-6, b = 1e-9;

  GroupedTrace across;  // nodes a0, a1 and b0: the longest route crosses the spine
  across.cases.push_back(measured_case({{1, 1, 1}, RankOrder::block}, a, b));
  const CalibrationRoute route = calibration_route(platform, across, "trace.json");
  CHECK(route.route_latency_s == doctest::Approx(2e-6 + 1e-6 + 3e-6 + 7e-6 + 3e-6 + 1e-6 + 4e-6).epsilon(1e-12));  // 21 us
  CHECK(route.fixed_latency_s == doctest::Approx(1e-6 + 3e-6 + 7e-6 + 3e-6 + 1e-6).epsilon(1e-12));  // 15 us
  CHECK(route.nic_hops == 2);
  CHECK(route.nic_bandwidth_Bps == doctest::Approx(10e9 / 8).epsilon(1e-12));  // the slower NIC, a's
  const RingCalibration calibration = calibrate_ring(route, across, 0, "trace.json", "ring", ModelSettings{});
  REQUIRE(calibration.nic_latency_s.has_value());
  CHECK(*calibration.nic_latency_s == doctest::Approx((40e-6 - 15e-6) / 2).epsilon(1e-6));  // 12.5 us per NIC

  GroupedTrace within;  // nodes a0 and a1: one rack, NIC + switch + NIC
  within.cases.push_back(measured_case({{2, 2}, RankOrder::block}, a, b));
  const CalibrationRoute rack = calibration_route(platform, within, "trace.json");
  CHECK(rack.route_latency_s == doctest::Approx(2e-6 + 1e-6 + 2e-6).epsilon(1e-12));
  CHECK(rack.fixed_latency_s == doctest::Approx(1e-6).epsilon(1e-12));

  GroupedTrace too_wide;
  too_wide.cases.push_back(measured_case({{1, 1, 1, 1, 1}, RankOrder::block}, a, b));
  CHECK_THROWS_WITH_AS(calibration_route(platform, too_wide, "trace.json"), doctest::Contains("trace.json: placement 1-1-1-1-1 names 5 nodes"),
                       InputError);
}
