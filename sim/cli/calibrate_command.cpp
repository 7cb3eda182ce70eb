// `ringsim calibrate`: fit the ring's per-step latency and the effective bandwidth of the busiest
// NIC direction to a measured trace, and write a model file that `run`/`validate --model` apply.
// The point: calibrate on one layout of a cluster, predict another layout of the same cluster.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../results/results_output.h"
#include "../validate/calibration.h"
#include "command_line.h"
#include "commands.h"
#include "trace_input.h"

#include <cstdio>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kCalibrateUsage = R"(usage: ringsim calibrate SCENARIO.json --measured TRACE -o MODEL.json [--format F] [--min-bytes SIZE]
                         [--select P/ORDER,...] [--ranks N]

Fits t_step = a + b * (k * S / N) to the trace: each of the ring's 2(N-1) steps moves S/N bytes per
ring edge and the busiest NIC direction carries k edges (k from the placement). a is the per-step
latency, 1/b the effective bandwidth of a NIC direction. Writes a model file:
  {"network": "CM02", "crosstraffic": false, "factors": "none",
   "link_bandwidth_scale": (1/b) / NIC bandwidth, "simgrid": {"smpi/lat-factor": "0:" a / route latency}}
so that simulated steps take a + k*S/N/(effective bandwidth), links shared as before. The scenario's
topology must be compact JSON whose inter-node route has a non-zero latency (NIC + switch + NIC).
  --min-bytes SIZE   fit only sizes at or above SIZE (default: all)
  --select LIST      ringsim traces: fit only these placements, e.g. 4-2-2/block
)";

}  // namespace

int calibrate_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "calibrate", {"--measured", "--select", "--format", "--min-bytes", "--ranks", "-o", "--output"}, {});
  if (args.has("--help")) {
    std::fputs(kCalibrateUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim calibrate: expected exactly one SCENARIO.json");
  auto output = args.value("-o");
  if (!output) output = args.value("--output");
  if (!output) throw UsageError("ringsim calibrate: -o MODEL.json is required");
  check_output_file("-o", *output);
  const std::uint64_t min_bytes = args.value("--min-bytes") ? bytes_option("--min-bytes", *args.value("--min-bytes")) : 0;

  const Scenario scenario = load_scenario(args.positional[0]);
  const Platform platform = load_platform(scenario.topology);
  if (!platform.topology)
    throw InputError(fmt::format("{}: calibration scales a compact topology's links; SimGrid XML is not supported",
                                 scenario.topology.string()));
  const NodeSpec& node = platform.topology->racks.front().nodes.front();
  const double route_latency = 2 * node.nic.latency_s + platform.topology->racks.front().switch_link.latency_s;
  if (route_latency <= 0)
    throw InputError(fmt::format("{}: the route between nodes has zero latency; give the NICs a latency (e.g. 5us) "
                                 "so that the fitted one can be expressed as a factor of it",
                                 scenario.topology.string()));
  const TraceInput input = read_trace_input(args, scenario, "calibrate");
  const MeasuredTrace& trace = input.trace;
  const GroupedTrace& grouped = input.grouped;
  const std::string& trace_file = input.file;

  std::vector<StepSample> samples;
  struct Row {
    std::string label;
    std::uint64_t bytes;
    int ranks, edges;
    double measured_s;
  };
  std::vector<Row> rows;
  for (const auto& measured : grouped.cases) {
    const int n = measured.placement.total_ranks();
    if (measured.placement.order == RankOrder::optimized) continue;  // its order is the model's choice: not a fit input
    const int edges = busiest_nic_direction_edges(measured.placement);
    if (edges == 0 || n < 2) continue;  // no traffic between nodes: nothing about the network to learn
    for (const auto& [bytes, time] : measured.median_time_s) {
      if (bytes < min_bytes) continue;
      samples.push_back({static_cast<double>(edges) * static_cast<double>(bytes) / n, time / (2.0 * (n - 1))});
      rows.push_back({measured.placement.label(), bytes, n, edges, time});
    }
  }
  StepFit fit;
  try {
    fit = fit_step_times(samples);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: {}", trace_file, e.what()));
  }

  const double scale = fit.bandwidth_Bps() / node.nic.bandwidth_Bps;
  const double latency_factor = fit.latency_s / route_latency;
  fmt::print("# Calibrated on {} ({} sizes >= {})\n", trace.summary(), samples.size(), format_bytes(min_bytes));
  fmt::print("# per-step latency a = {:.1f} us ({:.2f}x the topology's route latency {:.1f} us)\n", fit.latency_s * 1e6,
             latency_factor, route_latency * 1e6);
  fmt::print("# effective bandwidth 1/b = {:.2f} MB/s per NIC direction ({:.3f}x the NIC's {:.2f} MB/s)\n",
             fit.bandwidth_Bps() / 1e6, scale, node.nic.bandwidth_Bps / 1e6);
  fmt::print("# fit quality: R^2 {:.4f}, median |residual| {:.1f}%\n", fit.r_squared, fit.median_abs_residual * 100);
  fmt::print("#{:>22} {:>11} {:>6} {:>12} {:>12} {:>8}\n", "case", "size", "edges", "measured(ms)", "fitted(ms)", "resid.");
  for (const auto& row : rows) {
    const double fitted = 2.0 * (row.ranks - 1) * fit.predict(static_cast<double>(row.edges) * row.bytes / row.ranks);
    fmt::print(" {:>22} {:>11} {:>6} {:>12.3f} {:>12.3f} {:>+7.1f}%\n", row.label, format_bytes(row.bytes), row.edges,
               row.measured_s * 1e3, fitted * 1e3, (fitted / row.measured_s - 1) * 100);
  }

  const nlohmann::json model = {
      {"network", "CM02"},
      {"crosstraffic", false},
      {"factors", "none"},
      {"link_bandwidth_scale", scale},
      {"simgrid", {{"smpi/lat-factor", fmt::format("0:{}", latency_factor)}}},
      {"calibration",
       {{"trace", trace_file}, {"format", trace.format}, {"step_latency_s", fit.latency_s},
        {"bandwidth_Bps", fit.bandwidth_Bps()}, {"r_squared", fit.r_squared},
        {"median_abs_residual", fit.median_abs_residual}, {"samples", fit.samples}, {"min_bytes", min_bytes}}}};
  write_file_atomically(*output, model.dump(2) + "\n");
  fmt::print("# wrote {}: apply it with ringsim run|validate SCENARIO --model {}\n", *output, *output);
  return 0;
}

}  // namespace ringsim
