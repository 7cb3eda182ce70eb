#include "nccl_plan.h"

#include "nccl_rails.h"
#include "tuning/nccl_launch.h"
#include "../rank/nccl_channel_rings.h"
#include "../rank/rank_nodes.h"

#include <algorithm>
#include <atomic>

namespace ringsim {
namespace {

std::atomic<std::size_t> plans_made{0};

bool runs_ring(NcclRequest r) { return r == NcclRequest::ring || r == NcclRequest::choice; }
bool runs_tree(NcclRequest r) { return r == NcclRequest::tree || r == NcclRequest::choice; }

NcclAlgorithmKind kind_of(NcclRequest r) {
  switch (r) {
    case NcclRequest::tree: return NcclAlgorithmKind::tree;
    case NcclRequest::nvls: return NcclAlgorithmKind::nvls;
    case NcclRequest::nvls_tree: return NcclAlgorithmKind::nvls_tree;
    case NcclRequest::pat: return NcclAlgorithmKind::pat;
    case NcclRequest::ring:
    case NcclRequest::choice:
    case NcclRequest::p2p: break;
  }
  return NcclAlgorithmKind::ring;
}

// What the rank program takes from the case C (the plan's optional parts), per the algorithm asked for.
void add_rank_costs(NcclPlan& plan, const std::optional<NcclCase>& c) {
  const bool ring = runs_ring(plan.request), nccl_network = plan.nccl_network;
  if (ring && nccl_network && plan.settings.handshake && c) {
    if (!c->nvlink) plan.handshake = nccl_simple_handshake(*c);
    if (nccl_protocol_enabled(*c, NcclProtocol::ll128)) plan.ll128_hops = nccl_ll128_hop_extra(*c);
  }
  if (ring && nccl_network && c && c->ranks >= 2 && c->channels >= 1)
    plan.block_rates = NcclBlockRates{nccl_ring_bus_GBps(*c, NcclProtocol::ll) * 1e9, nccl_ring_bus_GBps(*c, NcclProtocol::ll128) * 1e9};
  if (runs_tree(plan.request) && nccl_network && c && c->nodes >= 2) plan.tree_hops = nccl_tree_hops(*c);
  const bool nvls_asked = plan.request == NcclRequest::nvls || plan.request == NcclRequest::nvls_tree;
  const bool all_reduce = plan.function == NcclFunction::all_reduce;
  const bool nvls_chosen = plan.request == NcclRequest::choice && c &&
                           (all_reduce ? nccl_nvls_possible(*c) || nccl_nvls_tree_possible(*c) : nccl_nvls_copy_possible(*c));
  if (nvls_asked || nvls_chosen)
    plan.nvls = NcclNvlsRun{nccl_nvls_efficiency(plan.settings.compute_capability), nccl_nvls_latency_s(*plan.settings.release)};
}

}  // namespace

std::optional<NcclCase> nccl_case_of(const ModelSettings& model, const PlacementSpec& placement) {
  if (!model.nccl_facts) return std::nullopt;
  const NcclSettings settings = model.effective_nccl();
  NcclCase c = nccl_case(settings, *model.nccl_facts, placement.total_ranks(), placement.nodes_used());
  if (c.nodes > 1 && !model.nccl_facts->nodes.empty()) {
    // The search sees the NICs beside the placement's ranks, not every NIC of the node, and the
    // bandwidth its channels get through them and the GPUs' ports (nccl_rails.h).
    const std::vector<int> rails = nccl_rail_of_ranks(*model.nccl_facts, placement);
    c.nic_beside_gpu = std::all_of(rails.begin(), rails.end(), [](int nic) { return nic >= 0; });
    const int search = nccl_search_rails(node_of_ranks(placement), rails);
    c.search_channels = search;
    c.channels = settings.channels.value_or(std::min(settings.release->channel_factor * search, kNcclMaxChannels));
    const NcclRailUse use = nccl_rail_use(*model.nccl_facts, placement, c.channels, model.platform_model().nccl_pxn);
    c.channel_bandwidth_Bps = use.bus_bandwidth_Bps / search;
    // NVLS trees pair each node's heads across nodes: as many ranks on every node, each beside a NIC
    // of its own (the heads ringsim models; NCCL also runs them with fewer NICs than GPUs).
    const int per_node = c.ranks / c.nodes;
    if (placement.same_ranks_on_each_node() && per_node >= 2 && c.nic_beside_gpu && search == per_node &&
        nccl_nvls_hardware(settings, *model.nccl_facts, settings.release->nvls_trees)) {
      nccl_set_nvls(c, settings, *model.nccl_facts, per_node);
      c.nvls_inter_Bps = std::min(model.nccl_facts->nic_bandwidth_Bps, 2 * c.nvls_channel_Bps);
    }
  }
  return c;
}

bool NcclPlan::paces_slices() const {
  return handshake.has_value() || ll128_hops.has_value() || block_rates.has_value() || tree_hops.has_value() || nvls.has_value() ||
         (p2p && p2p->block_Bps > 0);
}

NcclChoice NcclPlan::choice_at(std::uint64_t bytes) const {
  const NcclProtocol requested = settings.protocol;
  const NcclAlgorithmKind kind = kind_of(request);
  if (!nccl_case) {
    NcclChoice fallback{kind, {}};
    fallback.prediction.protocol = requested == NcclProtocol::auto_choice ? NcclProtocol::simple : requested;
    fallback.prediction.time_s = -1;  // no model without NCCL's view of the platform
    return fallback;
  }
  const NcclCase& c = *nccl_case;
  if (p2p) {  // Simple (LL below 16 KiB a channel is not modelled); NCCL's model has no time for send and receive
    NcclChoice unpriced{NcclAlgorithmKind::ring, {}};
    unpriced.prediction.time_s = -1;
    return unpriced;
  }
  // NCCL's other functions: its ring at the protocol its model picks for the function, or (all-gather
  // and reduce-scatter) NVLS or PAT where asked for or picked.
  if (function != NcclFunction::all_reduce) {
    if (request == NcclRequest::choice) return nccl_choose_function(c, requested, bytes, function);
    if (request == NcclRequest::nvls && nccl_nvls_copy_possible(c)) return NcclChoice{kind, nccl_nvls_copy_time(c, bytes)};
    if (request == NcclRequest::pat && nccl_pat_possible(c)) return NcclChoice{kind, nccl_pat_time(c, bytes)};
    if (request != NcclRequest::nvls && request != NcclRequest::pat)
      return NcclChoice{NcclAlgorithmKind::ring, nccl_predict(c, requested, bytes, function)};
    NcclChoice unmodelled{kind, {}};  // NCCL would not run NVLS (PAT) here: no model time
    unmodelled.prediction.time_s = -1;
    return unmodelled;
  }
  switch (request) {
    case NcclRequest::choice: return nccl_choose(c, requested, bytes);
    case NcclRequest::tree: return NcclChoice{kind, nccl_tree_predict(c, requested, bytes)};
    case NcclRequest::nvls:
      if (nccl_nvls_possible(c)) return NcclChoice{kind, nccl_nvls_time(c, bytes)};
      break;
    case NcclRequest::nvls_tree:
      if (nccl_nvls_tree_possible(c)) return NcclChoice{kind, nccl_nvls_tree_time(c, bytes)};
      break;
    case NcclRequest::ring: return NcclChoice{kind, nccl_predict(c, requested, bytes)};
    case NcclRequest::p2p:  // only under alltoall and sendrecv: above
    case NcclRequest::pat: break;  // only under all-gather and reduce-scatter: above
  }
  NcclChoice unmodelled{kind, {}};  // NCCL would not run NVLS here: no model time
  unmodelled.prediction.time_s = -1;
  return unmodelled;
}

int NcclPlan::launch_channels_at(std::uint64_t bytes) const {
  if (!nccl_case) return settings.channels.value_or(2);
  const NcclChoice choice = choice_at(bytes);
  const bool ring_or_tree = choice.algorithm == NcclAlgorithmKind::ring || choice.algorithm == NcclAlgorithmKind::tree;
  // PAT: tuning.cc gives it no thread count of its own (maxThreads 0), so enqueue.cc's channel tuning
  // never drops one: every call runs on the communicator's channels.
  if (choice.algorithm == NcclAlgorithmKind::pat) return nccl_case->channels;
  return ring_or_tree ? nccl_launch_channels(*nccl_case, choice.algorithm, choice.prediction.protocol, bytes)
                      : nccl_nvls_launch_channels(*nccl_case);
}

double NcclPlan::software_cost_of(const NcclChoice& choice, std::uint64_t bytes) const {
  if (!nccl_network || !nccl_case) return 0;
  const NcclProtocol protocol = choice.prediction.protocol;
  const NcclWire wire = protocol == NcclProtocol::ll ? NcclWire::ll : protocol == NcclProtocol::ll128 ? NcclWire::ll128 : NcclWire::simple;
  return nccl_software_cost_s(settings.software, {choice.algorithm, wire, bytes, nccl_case->ranks, nccl_case->nodes, collective},
                              nccl_case->nvlink, nccl_case->net_path);
}

NcclFunction nccl_function_of(Collective collective) {
  switch (collective) {
    case Collective::all_gather: return NcclFunction::all_gather;
    case Collective::reduce_scatter: return NcclFunction::reduce_scatter;
    case Collective::broadcast: return NcclFunction::broadcast;
    case Collective::reduce: return NcclFunction::reduce;
    case Collective::all_reduce:
    case Collective::alltoall:
    case Collective::sendrecv: break;
  }
  return NcclFunction::all_reduce;
}

std::optional<NcclPlan> plan_nccl_case(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm,
                                       Collective collective) {
  const std::optional<NcclRequest> request = nccl_request_of(algorithm);
  if (!request) return std::nullopt;
  ++plans_made;
  NcclPlan plan;
  plan.request = *request;
  plan.function = nccl_function_of(collective);
  plan.collective = collective;
  plan.settings = model.effective_nccl();
  plan.nccl_network = model.network == "NCCL";
  plan.nccl_case = nccl_case_of(model, placement);
  if (model.nccl_facts) plan.rails = nccl_rail_of_ranks(*model.nccl_facts, placement);
  if (collective == Collective::alltoall || collective == Collective::sendrecv) {
    // NCCL's point-to-point schedule: none of the rings', trees' or NVLS's costs.
    if (plan.nccl_case && model.nccl_facts) {
      const std::vector<std::vector<int>> nodes = ranks_of_nodes(placement.total_ranks(), node_of_ranks(placement));
      std::size_t local_ranks = 1;
      for (const std::vector<int>& ranks : nodes) local_ranks = std::max(local_ranks, ranks.size());
      plan.p2p = nccl_p2p_run(*plan.nccl_case, *model.nccl_facts, static_cast<int>(local_ranks), plan.settings.buffsize);
    } else {
      plan.p2p = NcclP2pRun{};  // no facts: the rank program's defaults, unpaced
    }
    plan.p2p->flow_per_chunk = plan.settings.p2p_flow_per_chunk;
    plan.rules = nccl_enqueue_rules(*plan.settings.release, plan.settings.buffsize);
    return plan;
  }
  add_rank_costs(plan, plan.nccl_case);
  plan.rules = nccl_enqueue_rules(*plan.settings.release, plan.settings.buffsize);
  return plan;
}

std::size_t nccl_plans_made() { return plans_made.load(); }

NcclProtocol nccl_protocol_at(const ModelSettings& model, const std::optional<NcclCase>& c, std::uint64_t bytes) {
  const NcclProtocol requested = model.effective_nccl().protocol;
  if (requested != NcclProtocol::auto_choice) return requested;
  return c ? nccl_predict(*c, requested, bytes).protocol : NcclProtocol::simple;
}

}  // namespace ringsim
