#include "trace_learning.h"

#include "../platform/gpu_generation.h"
#include "../common/input_error.h"
#include "../model/algorithm_registry.h"

#include "../nccl/nccl_plan.h"
#include "../results/case_results.h"
#include "../nccl/tuning/nccl_nvls_costs.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <set>
#include <vector>

namespace ringsim {
namespace {

const NcclRunFacts* facts_of(const TraceInput& input) {
  const auto& run = input.trace.run;
  return run && run->nccl ? &*run->nccl : nullptr;
}

// "line 30" where NCCL (or the command line) named the setting, for messages.
std::string where(const NcclRunFacts& facts, const std::string& name) {
  const auto it = facts.environment_lines.find(name);
  return it == facts.environment_lines.end() ? std::string("the log") : fmt::format("line {}", it->second);
}

std::optional<NcclProtocol> protocol_named(const std::string& name) {
  for (NcclProtocol p : {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple})
    if (protocol_name(p) == name) return p;
  return std::nullopt;
}

// The topology transports that carry NCCL's network transport TRANSPORT as the log of FACTS names it:
// verbs ("IB", also over RoCE; "IBext" from NVIDIA's plugin), sockets, the OFI plugin (its name says
// AWS on every fabric) over Slingshot's cxi where the log's provider or NICs say so, else over EFA;
// none for transports the topology format has no name for (GPUDirect-TCPX, ...).
std::vector<NicTransport> topology_transports_of(const std::string& transport, const NcclRunFacts& facts) {
  if (transport == "IB" || transport == "IBext") return {NicTransport::ib, NicTransport::roce};
  if (transport == "Socket") return {NicTransport::tcp};
  if (transport.find("Libfabric") != std::string::npos || transport.find("OFI") != std::string::npos)
    return {facts.ofi_over_cxi() ? NicTransport::cxi : NicTransport::efa};
  return {};
}

// Where the log's hops between nodes contradict the topology's nodes: their transport (the NIC's
// payload share and, for EFA, its latency follow from it) and GPUDirect RDMA ("/GDRDMA" on a hop: the
// NIC reads and writes GPU memory; without it NCCL stages through host memory, which "gdr" states).
// Sockets always stage (the topology has no "gdr" to say for them): no GPUDirect warning there.
void warn_transport_contradictions(const NcclRunFacts& facts, const Topology& topology, const std::string& file) {
  const NcclNetworkHop& first = facts.network_hops.front();
  const std::vector<NicTransport> expected = topology_transports_of(first.transport, facts);
  const bool sockets = expected == std::vector<NicTransport>{NicTransport::tcp};
  const bool gdr = facts.any_gdr();
  const NcclNetworkHop& example =
      *std::find_if(facts.network_hops.begin(), facts.network_hops.end(), [gdr](const NcclNetworkHop& hop) { return hop.gdr == gdr; });
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes) {
      if (!expected.empty() && std::find(expected.begin(), expected.end(), node.nic_transport) == expected.end()) {
        fmt::print(stderr,
                   "ringsim: warning: {}:{}: NCCL sends between nodes over NET/{} but the topology's node {} has "
                   "\"nic_transport\": \"{}\": give its nodes \"nic_transport\": \"{}\"\n",
                   file, first.line, first.transport, node.name, nic_transport_name(node.nic_transport), nic_transport_name(expected.front()));
        return;
      }
      if (node.gdr != gdr && !sockets) {
        fmt::print(stderr,
                   "ringsim: warning: {}:{}: NCCL's hops between nodes go {} GPUDirect RDMA (NET/{}/{}{}) but the topology's "
                   "node {} has \"gdr\": {}: give its nodes \"gdr\": {}\n",
                   file, example.line, gdr ? "with" : "without", example.transport, example.device, gdr ? "/GDRDMA" : "",
                   node.name, node.gdr ? "true" : "false", gdr ? "true" : "false");
        return;
      }
    }
}

// Warnings where the topology's transport or GPUDirect RDMA contradict the log's hops; the NIC count
// and the other facts of the nodes are set against the topology where the topology's JSON is read
// (sim/import/log_facts_on_topology.h).
void warn_contradictions(const NcclRunFacts& facts, const Platform& platform, const std::string& file) {
  if (!platform.topology || facts.network_hops.empty()) return;
  warn_transport_contradictions(facts, *platform.topology, file);
}

// A scenario still on SMPI's defaults (the model of the MPI ring it named by default) takes the
// model made for NCCL, as a scenario naming NCCL's algorithms would have (model_settings.h).
void adopt_nccl_model(Scenario& scenario) {
  const ModelSettings smpi = default_model_for({algorithm_name(kDefaultAlgorithm)});
  ModelSettings& model = scenario.model;
  if (model.network != smpi.network || model.factors != smpi.factors || model.crosstraffic != smpi.crosstraffic) return;
  const ModelSettings nccl = default_model_for({algorithm_name(AlgorithmId::nccl)});
  model.network = nccl.network;
  model.factors = nccl.factors;
  model.crosstraffic = nccl.crosstraffic;
  fmt::print("# the model made for NCCL: network {}, factors {}, no cross-traffic (name the model's network to override)\n",
             model.network, model.factors);
}

}  // namespace

void adopt_trace_nccl_algorithm(Scenario& scenario, const TraceInput& input) {
  const NcclRunFacts* facts = facts_of(input);
  const bool nccl_run = input.trace.format == "nccl-tests" || (input.trace.run && input.trace.run->library == "NCCL");
  if (!facts || !facts->algorithm) {
    // NCCL's default choice: what its tuning model picks per size (nccl_choice.h).
    if (!nccl_run || scenario.algorithms_given) return;
    scenario.algorithms = {algorithm_name(AlgorithmId::nccl)};
    fmt::print("# no NCCL_ALGO in the trace: simulating nccl, the algorithm NCCL's model picks per size "
               "(name the scenario's algorithms to override)\n");
    adopt_nccl_model(scenario);
    return;
  }
  const std::string& forced = *facts->algorithm;
  // NCCL's ring, tree, NVLS on one node and NVLS trees are simulated (the registry names the algorithm
  // of each NCCL_ALGO); NVLS over several nodes (which needs CollNet) and CollNet are named as not modelled.
  const bool one_node = std::all_of(input.grouped.cases.begin(), input.grouped.cases.end(),
                                    [](const MeasuredCase& measured) { return measured.placement.nodes_used() <= 1; });
  const AlgorithmRow* row = algorithm_of_nccl_algo(forced);
  if (row == nullptr || (row->placements() == AlgorithmInfo::Placements::one_node && !one_node)) {
    fmt::print(stderr, "ringsim: note: the trace's run forced NCCL_ALGO={} ({}), an algorithm ringsim does not model\n", forced,
               where(*facts, "NCCL_ALGO"));
    return;
  }
  const std::string simulated(row->name());
  if (scenario.algorithms_given) {
    if (scenario.algorithms.size() == 1 && find_algorithm_row(scenario.algorithms.front()) != row)
      fmt::print(stderr, "ringsim: note: the trace's run forced NCCL_ALGO={} ({}); simulating the scenario's {}\n", forced,
                 where(*facts, "NCCL_ALGO"), scenario.algorithms.front());
    return;
  }
  scenario.algorithms = {simulated};
  fmt::print("# NCCL_ALGO={} from the trace ({}): simulating {} (name the scenario's algorithms to override)\n", forced,
             where(*facts, "NCCL_ALGO"), simulated);
  if (row->nccl_request != NcclRequest::ring) adopt_nccl_model(scenario);
}

void note_tree_signature(const Scenario& scenario, const TraceInput& input, const Platform& platform) {
  if (!platform.topology || input.trace.format != "nccl-tests") return;
  ModelSettings model = scenario.model;
  model.nccl_facts = nccl_topology_facts(*platform.topology);
  const bool simulates_nccl_choice = std::any_of(scenario.algorithms.begin(), scenario.algorithms.end(), [](const std::string& name) {
    return nccl_request_of(name) == NcclRequest::choice;
  });
  // Point-to-point collectives run no ring, so no ring bounds them.
  const Collective collective = input.grouped.collective;
  if (collective == Collective::alltoall || collective == Collective::sendrecv) return;
  for (const MeasuredCase& measured : input.grouped.cases) {
    const std::optional<NcclCase> c = nccl_case_of(model, measured.placement);
    if (c && simulates_nccl_choice)
      if (const std::string unmodelled = nccl_unmodelled_algorithms(*c); !unmodelled.empty())
        fmt::print("# note: {}\n", unmodelled);
    // Inside one node only NVLink's own reduction (NVLS, on NVSwitches that do it) beats the ring.
    const bool one_nvlink_node = c && c->nodes == 1 && c->nvlink;
    if (!c || (c->nodes < 2 && !one_nvlink_node)) continue;
    // NCCL's ring cannot carry more bus bandwidth than its channels: through the NICs it uses, or over
    // NVLink inside one node (the channels NCCL's search finds there, nccl_intra_search.h).
    const double ring_bound_GBps = c->search_channels * c->channel_bandwidth_Bps / 1e9;
    for (const auto& [bytes, time_s] : measured.median_time_s) {
      const double busbw = busbw_GBps(bytes, time_s, measured.placement.total_ranks(), collective);
      if (busbw <= 1.02 * ring_bound_GBps) continue;
      if (one_nvlink_node)
        fmt::print("# note: {} measured busbw {:.2f} GB/s at {} B, above the {:.2f} GB/s NCCL's ring can reach over NVLink: "
                   "NCCL probably ran NVLS (NVLink SHARP), {}\n",
                   measured.placement.label(), busbw, bytes, ring_bound_GBps,
                   nccl_nvls_possible(*c) ? "which nccl simulates where NCCL's model picks it"
                                          : "which ringsim simulates on Hopper or later GPUs from NCCL 2.17 only (nccl.compute_capability, nccl.version)");
      else
        fmt::print("# note: {} measured busbw {:.2f} GB/s at {} B, above the {:.2f} GB/s a ring through the NICs it uses can "
                   "reach: NCCL probably ran {}\n", measured.placement.label(), busbw, bytes, ring_bound_GBps,
                   collective == Collective::all_reduce ? "a tree" : "another algorithm than its ring (PAT, or NVLS with CollNet)");
      break;
    }
  }
}

void adopt_trace_nccl_settings(Scenario& scenario, const TraceInput& input, const Platform& platform) {
  const NcclRunFacts* facts = facts_of(input);
  if (!facts) return;
  if (simulates_nccl(scenario)) {
    NcclSettings nccl = scenario.model.effective_nccl();
    if (facts->protocol && !nccl.protocol_given) {
      const auto protocol = protocol_named(*facts->protocol);
      if (protocol && nccl_has_protocol(*nccl.release, *protocol)) {
        nccl.protocol = *protocol;
        fmt::print("# NCCL_PROTO={} from the trace ({}): the model's nccl.protocol (set it to override)\n", *facts->protocol,
                   where(*facts, "NCCL_PROTO"));
      } else {
        fmt::print(stderr, "ringsim: note: the trace's run forced NCCL_PROTO={}, which NCCL {} does not have; simulating {}\n",
                   *facts->protocol, nccl.version_text, protocol_name(nccl.protocol));
      }
    }
    const std::optional<int> channels = facts->channels ? facts->channels : facts->min_channels;
    if (channels && !nccl.channels) {
      if (*channels <= kNcclMaxChannels) {
        nccl.channels = *channels;
        fmt::print("# {} channel{} from the trace's NCCL log ({}): the model's nccl.channels (set it to override)\n", *channels,
                   *channels == 1 ? "" : "s",
                   facts->channels ? "the channels it lists" : "NCCL_MIN_NCHANNELS, " + where(*facts, "NCCL_MIN_NCHANNELS"));
      } else {
        fmt::print(stderr, "ringsim: note: the trace's run used {} channels, more than the {} ringsim models; simulating NCCL's "
                           "default\n", *channels, kNcclMaxChannels);
      }
    }
    scenario.model.nccl = nccl;
  }
  warn_contradictions(*facts, platform, input.file);
}

void learn_trace_nccl_run(Scenario& scenario, const TraceInput& input, const Platform& platform) {
  adopt_trace_nccl_algorithm(scenario, input);
  adopt_trace_nccl_version(scenario, input);
  adopt_trace_gpu_generation(scenario, input);
  adopt_trace_net_latency(scenario, input);
  if (platform.topology) scenario.model.adopt_topology_gpus(*platform.topology);
  adopt_trace_nccl_settings(scenario, input, platform);
}

bool simulates_nccl(const Scenario& scenario) {
  return std::any_of(scenario.algorithms.begin(), scenario.algorithms.end(), [](const std::string& name) { return is_nccl_algorithm(name); });
}

void adopt_trace_nccl_version(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || run->library != "NCCL" || !run->library_version) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.version_given) return;
  const auto version = parse_nccl_version(*run->library_version);
  if (!version) {
    fmt::print(stderr, "ringsim: note: the trace ran NCCL {}, older than the versions ringsim models (2.4 on); "
                       "simulating {}\n", *run->library_version, nccl.version_text);
    return;
  }
  if (!nccl_has_protocol(nccl_release_of(*version), nccl.protocol))
    throw InputError(fmt::format("{}: the trace ran NCCL {}, which has no LL128, but the scenario forces it "
                                 "(set the model's nccl.protocol to LL or Simple)", input.file, *run->library_version));
  nccl.version_text = version->text();
  nccl.set_version(*version);
  scenario.model.nccl = nccl;
  const auto simulated = std::find_if(scenario.algorithms.begin(), scenario.algorithms.end(),
                                      [](const std::string& name) { return is_nccl_algorithm(name); });
  fmt::print("# NCCL version from the trace's header: {} ({} runs {}'s channels and protocol choice; "
             "set the model's nccl.version to override)\n", *run->library_version, *simulated, nccl.version_text);
}

void adopt_trace_gpu_generation(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || run->ranks.empty()) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.compute_capability_given) return;
  std::set<std::string> names;
  for (const MeasuredRank& rank : run->ranks)
    if (!rank.gpu.empty()) names.insert(rank.gpu);
  if (names.empty()) return;
  std::set<int> generations;
  for (const std::string& name : names) generations.insert(gpu_compute_capability(name).value_or(0));
  if (generations.size() != 1 || *generations.begin() == 0) {
    fmt::print(stderr, "ringsim: note: the trace's GPUs ({}) are not of one generation ringsim knows; NCCL's model runs as "
                       "compute capability {} (set the model's nccl.compute_capability to override)\n",
               fmt::join(names, ", "), nccl.compute_capability);
    return;
  }
  nccl.compute_capability = *generations.begin();
  nccl.compute_capability_given = true;  // the run's own GPUs: above a topology's gpu_model
  scenario.model.nccl = nccl;
  fmt::print("# GPUs from the trace's header: {} (NCCL's model as compute capability {}; set the model's "
             "nccl.compute_capability to override)\n", *names.begin(), nccl.compute_capability);
}

void adopt_trace_net_latency(Scenario& scenario, const TraceInput& input) {
  const auto& run = input.trace.run;
  if (!run || !run->nccl || !run->nccl->net_latency_us) return;
  if (!simulates_nccl(scenario)) return;
  NcclSettings nccl = scenario.model.effective_nccl();
  if (nccl.net_latency_given) return;
  nccl.net_latency_s = *run->nccl->net_latency_us * 1e-6;
  nccl.net_latency_given = true;
  scenario.model.nccl = nccl;
  fmt::print("# network plugin's latency from the trace (line {}): {} us, which NCCL's model adds to each network hop from "
             "2.12 (set the model's nccl.net_latency to override)\n", run->nccl->net_latency_line, *run->nccl->net_latency_us);
}

}  // namespace ringsim
