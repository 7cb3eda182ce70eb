// `ringsim calibrate`: fit the ring's per-step latency and the effective bandwidth of the busiest
// NIC direction to a measured trace, and write a model file that `run`/`validate --model` apply.
// The point: calibrate on one layout of a cluster, predict another layout of the same cluster.
#include "../analysis/algorithm_costs.h"
#include "../nccl/nccl_plan.h"
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/units.h"
#include "../results/results_output.h"
#include "../validate/latency_calibration.h"
#include "../validate/ring_calibration.h"
#include "../validate/software_cost_calibration.h"
#include "../validate/trace_validation.h"
#include "command_line.h"
#include "commands.h"
#include "log_topology_facts.h"
#include "trace_input.h"
#include "../validate/trace_learning.h"

#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ringsim {
namespace {

constexpr const char* kCalibrateUsage = R"(usage: ringsim calibrate SCENARIO.json --measured TRACE -o MODEL.json [--format F] [--min-bytes SIZE]
                         [--select P/ORDER,...] [--ranks N] [--collective NAME]

Fits t_step = a + b * (k * S / N) to the trace: each of the ring's 2(N-1) steps moves S/N bytes per
ring edge and the busiest NIC direction carries k edges (k from the placement and the ring order of
the scenario's algorithm when it names exactly one, as validate simulates it, else the MPI ring's:
nccl_ring's node-contiguous ring gives k = 1). a is the per-step latency, 1/b the effective bandwidth
of a NIC direction. Writes a model file:
  {"network": "CM02", "crosstraffic": false, "factors": "none",
   "nic_efficiency": (1/b) / NIC bandwidth, "nic_latency": (a - other latencies) / NICs}
(for NCCL's algorithms "network": "NCCL", the model made for NCCL, and the efficiency beyond the NIC's
transport payload share, which that model applies first)
so that simulated steps take a + k*S/N/(effective bandwidth), NICs shared as before, links inside
nodes and switches at their own rates and latencies. For nccl_ring, which pipelines many slices per
step, a is printed but not written. Instead, when the trace has latency-bound sizes (from its smallest
size up, at least 3 whose times stay within 1.25x the smallest; nccl-tests from 4 bytes), they are
simulated and "link_latency_scale" is fitted: every link latency of the topology times it, so that
NCCL's hops (a chain of 2(N-1) at those sizes) take what the trace measures. The route is the longest
between two nodes the fitted cases use, as the topology routes it (NIC + switch + NIC within a rack;
+ uplink + spine + uplink between racks): its other links keep their latencies, its NICs share the
rest, and its slowest NIC is the NIC bandwidth. The scenario's topology must be compact JSON whose
route between nodes has a non-zero latency.
Under the model made for NCCL, NCCL's software costs (model key nccl.software: per call, per step
inside nodes, per step across nodes) are fitted first, on every size of the trace: one simulation
with the costs at zero, then the non-negative least squares of the relative errors. Only the cluster's
own terms are fitted (its intra-node link, its network path); the others keep the learned defaults
(docs/software-costs.md). The link latency fit then runs with the fitted costs.
  --min-bytes SIZE   fit only sizes at or above SIZE (default: all)
  --select LIST      ringsim traces: fit only these placements, e.g. 4-2-2/block
  --collective NAME  nccl-tests: the allreduce run to read from a log of several (default all_reduce_perf;
                     calibrate fits the all-reduce; validate --model then predicts the other collectives)
)";

// The fit's summary, then each sample measured against its fitted time.
void print_calibration(const RingCalibration& calibration, const MeasuredTrace& trace, std::uint64_t min_bytes) {
  const StepFit& fit = calibration.fit;
  fmt::print("# Calibrated on {} ({} sizes >= {}), the ring order of {}\n", trace.summary(), calibration.rows.size(),
             format_bytes(min_bytes), calibration.algorithm);
  if (calibration.nic_latency_s)
    fmt::print("# per-step latency a = {:.1f} us (the topology's route: {:.1f} us; NIC latency {:.2f} us makes it a)\n",
               fit.latency_s * 1e6, calibration.route.route_latency_s * 1e6, *calibration.nic_latency_s * 1e6);
  else
    fmt::print("# per-step latency a = {:.1f} us, not applied: {} pipelines many slices per step, each paying the "
               "topology's route latency ({:.1f} us)\n",
               fit.latency_s * 1e6, calibration.algorithm, calibration.route.route_latency_s * 1e6);
  fmt::print("# effective bandwidth 1/b = {:.2f} MB/s per NIC direction ({:.3f}x the NIC's {:.2f} MB/s)\n",
             fit.bandwidth_Bps() / 1e6, calibration.nic_efficiency, calibration.route.nic_bandwidth_Bps / 1e6);
  fmt::print("# fit quality: R^2 {:.4f}, median |residual| {:.1f}%\n", fit.r_squared, fit.median_abs_residual * 100);
  fmt::print("#{:>22} {:>11} {:>6} {:>12} {:>12} {:>8}\n", "case", "size", "edges", "measured(ms)", "fitted(ms)", "resid.");
  for (const auto& row : calibration.rows)
    fmt::print(" {:>22} {:>11} {:>6} {:>12.3f} {:>12.3f} {:>+7.1f}%\n", row.label, format_bytes(row.bytes), row.edges,
               row.measured_s * 1e3, row.fitted_s * 1e3, (row.fitted_s / row.measured_s - 1) * 100);
}

void print_latency_fit(const LatencyScaleFit& fit) {
  fmt::print("# link latencies x {:.3f} fitted on the {} latency-bound sizes: median |error| {:.1f}% at x1, {:.1f}% fitted\n",
             fit.scale, fit.rows.size(), fit.unscaled_median_error * 100, fit.median_abs_residual * 100);
  fmt::print("#{:>22} {:>11} {:>12} {:>12} {:>8}\n", "case", "size", "measured(us)", "fitted(us)", "resid.");
  for (const LatencyFitRow& row : fit.rows)
    fmt::print(" {:>22} {:>11} {:>12.1f} {:>12.1f} {:>+7.1f}%\n", row.label, format_bytes(row.bytes), row.measured_s * 1e6,
               row.fitted_s * 1e6, (row.fitted_s / row.measured_s - 1) * 100);
}

void print_software_fit(const SoftwareCostFit& fit) {
  fmt::print("# NCCL's software costs fitted on {} sizes ({}): {}\n", fit.rows.size(), fmt::join(fit.terms, ", "),
             nccl_software_costs_text(fit.costs));
  fmt::print("# median |error| {:.1f}% with the costs learned across clusters, {:.1f}% fitted\n",
             fit.learned_median_error * 100, fit.fitted_median_error * 100);
  fmt::print("#{:>22} {:>11} {:>12} {:>12} {:>12} {:>8}\n", "case", "size", "nccl ran", "measured(us)", "fitted(us)", "resid.");
  for (const SoftwareCostRow& row : fit.rows)
    fmt::print(" {:>22} {:>11} {:>12} {:>12.1f} {:>12.1f} {:>+7.1f}%\n", row.label, format_bytes(row.bytes), row.ran,
               row.measured_s * 1e6, row.fitted_s * 1e6, (row.fitted_s / row.measured_s - 1) * 100);
}

// NCCL's software costs fitted on every size of the trace (into MODEL's nccl.software), before the
// link latencies. Returns false when a simulation failed.
bool calibrate_software_costs(const Scenario& scenario, const Platform& platform, const TraceInput& input,
                              const std::string& algorithm, nlohmann::json& model) {
  Scenario calibrated = scenario;
  calibrated.model = read_model(model, input.file + " (calibrated model)", "", scenario.model);
  fmt::print(stderr, "ringsim: fitting NCCL's software costs on {} sizes (1 simulation)\n", input.grouped.sizes.size());
  const auto fit = fit_software_costs(calibrated, platform, input.grouped, algorithm);
  if (!fit) return false;
  print_software_fit(*fit);
  model["nccl"]["software"] = nccl_software_costs_json(fit->costs);
  model["calibration"]["software_sizes"] = fit->rows.size();
  model["calibration"]["software_median_abs_residual"] = fit->fitted_median_error;
  return true;
}

// nccl_ring's latency: the link_latency_scale that its latency-bound sizes measure (into MODEL).
// Returns false when a simulation failed.
bool calibrate_latencies(const Scenario& scenario, const Platform& platform, const TraceInput& input,
                         const RingCalibration& calibration, nlohmann::json& model) {
  const auto flat = latency_bound_sizes(input.grouped);
  if (!flat) {
    fmt::print("# link latencies as in the topology: the trace has no latency-bound sizes (>= {} sizes from its "
               "smallest whose times stay within {}x)\n", kMinFlatSizes, kFlatRatio);
    return true;
  }
  Scenario calibrated = scenario;
  calibrated.model = read_model(model, input.file + " (calibrated model)", "", scenario.model);
  fmt::print(stderr, "ringsim: fitting the link latencies on {} latency-bound sizes (3 simulations)\n", flat->sizes.size());
  std::string why_not;
  const auto fit = fit_latency_scale(calibrated, platform, *flat, calibration.algorithm, why_not);
  if (!fit) {
    if (why_not.empty()) return false;
    fmt::print("# link latencies as in the topology: {}\n", why_not);
    return true;
  }
  print_latency_fit(*fit);
  model["link_latency_scale"] = fit->scale;
  model["calibration"]["latency_sizes"] = fit->rows.size();
  model["calibration"]["latency_median_abs_residual"] = fit->median_abs_residual;
  return true;
}

}  // namespace

int calibrate_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "calibrate",
                      {"--measured", "--select", "--format", "--collective", "--min-bytes", "--ranks", "-o", "--output"}, {});
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

  Scenario scenario = load_scenario(args.positional[0], PlacementsKey::optional);
  if (args.value("--collective") == std::optional<std::string>("all"))
    throw UsageError("ringsim calibrate: --collective all: calibrate fits one run (default all_reduce_perf); ringsim validate "
                     "--model MODEL.json then compares every run of the suite");
  Platform platform = calibration_platform(scenario);  // before the trace: its errors come first
  const TraceInput input = read_trace_input(args, scenario, "calibrate");
  if (input.trace.collective != Collective::all_reduce)
    throw UsageError(fmt::format("ringsim calibrate: --collective {}: calibrate fits an all_reduce_perf run; predict {} with "
                                 "ringsim validate --model MODEL.json", *args.value("--collective"), collective_name(input.trace.collective)));
  adopt_log_topology_facts(platform, input);
  check_trace_placements_fit(input, scenario, platform.layout);
  const CalibrationRoute route = calibration_route(platform, input.grouped, input.file);
  print_placement_source(input, scenario, false);
  learn_trace_nccl_run(scenario, input, platform);
  ModelSettings with_facts = scenario.model;  // NCCL's channels spread over the NICs beside its ranks
  with_facts.nccl_facts = nccl_topology_facts(*platform.topology);
  const RingCalibration calibration =
      calibrate_ring(route, input.grouped, min_bytes, input.file, validation_algorithm(scenario), with_facts);

  print_calibration(calibration, input.trace, min_bytes);
  nlohmann::json model = calibrated_model(calibration, input.file, input.trace.format, min_bytes);
  if (model["network"] == "NCCL" && platform.topology &&
      !calibrate_software_costs(scenario, platform, input, calibration.algorithm, model))
    return 1;
  if (!calibration.nic_latency_s && !calibrate_latencies(scenario, platform, input, calibration, model)) return 1;
  write_file_atomically(*output, model.dump(2) + "\n");
  fmt::print("# wrote {}: apply it with ringsim run|validate SCENARIO --model {}\n", *output, *output);
  return 0;
}

}  // namespace ringsim
