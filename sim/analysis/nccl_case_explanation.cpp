#include "nccl_case_explanation.h"

#include "../nccl/tuning/nccl_nvls_costs.h"
#include "../nccl/tuning/nccl_tree_costs.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

bool same_choice(const NcclChoice& a, const NcclChoice& b) {
  return a.algorithm == b.algorithm && a.prediction.protocol == b.prediction.protocol;
}

// The protocols NCCL prices for C under REQUESTED: the one asked for, or every one the case enables.
std::vector<NcclProtocol> priced_protocols(const NcclCase& c, NcclProtocol requested) {
  if (requested != NcclProtocol::auto_choice) return {requested};
  std::vector<NcclProtocol> protocols;
  for (NcclProtocol p : {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple})
    if (nccl_protocol_enabled(c, p)) protocols.push_back(p);
  return protocols;
}

// Every GPU's port of a node alike (rings and trees inside one node, NVLS): named by node 0's first.
NcclBinding every_port(const NcclTopologyFacts& facts, int sharers, int of, std::string sharer) {
  NcclBinding binding;
  const bool ports = !facts.nodes.empty() && !facts.nodes.front().port_links.empty();
  binding.link = ports ? fmt::format("{} (every GPU's alike)", facts.nodes.front().port_links.front()) : "the node's shared bus";
  binding.kind = ports ? std::string(nccl_link_kind_name(NcclLinkKind::gpu_port, facts.nvlink)) : "PCIe bus";
  binding.sharers = sharers;
  binding.of = of;
  binding.sharer = std::move(sharer);
  return binding;
}

NcclBinding from_use(const NcclRailUse& use, const NcclTopologyFacts& facts, int of, std::string sharer) {
  NcclBinding binding;
  binding.link = use.bottleneck;
  binding.kind = std::string(nccl_link_kind_name(use.bottleneck_kind, facts.nvlink));
  binding.sharers = use.bottleneck_crossings;
  binding.of = of;
  binding.sharer = std::move(sharer);
  binding.bus_bandwidth_Bps = use.bus_bandwidth_Bps;
  return binding;
}

// Whether the NVLS tree of C is held by its heads' NICs rather than NVLink (nccl_nvls_costs.h: the
// smaller of the two terms of its bandwidth, per release).
bool nvls_tree_network_binds(const NcclCase& c) {
  const double intra = c.nvls_channel_Bps, inter = c.nvls_inter_Bps;
  switch (c.release->nvls_formula) {
    case NcclNvlsFormula::ring_graph:
    case NcclNvlsFormula::heads_three_quarters: return c.nodes > 2;
    case NcclNvlsFormula::heads_five_sixths: return (c.nodes <= 2 ? inter : inter / 2) < intra;
    case NcclNvlsFormula::efficiency: break;
  }
  const double channels = c.nvls_channels;
  const double intra_bw = intra * nccl_nvls_efficiency(c.compute_capability) * (channels - 1) / channels * 2;
  return inter * (c.nodes <= 2 ? 2 : 1) < intra_bw;
}

double bus_of(const NcclPrediction& prediction, int ranks) {
  return ranks < 2 ? 0 : prediction.algbw_Bps * 2.0 * (ranks - 1) / ranks;
}

}  // namespace

std::vector<NcclChoice> nccl_ranked_choices(const NcclPlan& plan, std::uint64_t bytes) {
  std::vector<NcclChoice> choices;
  if (!plan.nccl_case) return choices;
  const NcclCase& c = *plan.nccl_case;
  const NcclProtocol requested = plan.settings.protocol;
  // NCCL 2.4 picks by thresholds, not by pricing: only its pick.
  if (!c.release->time_model) return {plan.choice_at(bytes)};
  const bool choose = plan.request == NcclRequest::choice && c.ranks > 1;
  const bool simple_allowed = requested == NcclProtocol::auto_choice || requested == NcclProtocol::simple;
  if (plan.request == NcclRequest::ring || choose)
    for (NcclProtocol p : priced_protocols(c, requested)) choices.push_back({NcclAlgorithmKind::ring, nccl_ring_time(c, p, bytes)});
  if (plan.request == NcclRequest::tree || choose)
    for (NcclProtocol p : priced_protocols(c, requested)) choices.push_back({NcclAlgorithmKind::tree, nccl_tree_time(c, p, bytes)});
  if ((plan.request == NcclRequest::nvls || (choose && simple_allowed)) && nccl_nvls_possible(c))
    choices.push_back({NcclAlgorithmKind::nvls, nccl_nvls_time(c, bytes)});
  if ((plan.request == NcclRequest::nvls_tree || (choose && simple_allowed)) && nccl_nvls_tree_possible(c))
    choices.push_back({NcclAlgorithmKind::nvls_tree, nccl_nvls_tree_time(c, bytes)});
  std::stable_sort(choices.begin(), choices.end(),
                   [](const NcclChoice& a, const NcclChoice& b) { return a.prediction.time_s < b.prediction.time_s; });
  return choices;
}

NcclBinding nccl_binding(const NcclPlan& plan, const NcclChoice& choice, const NcclTopologyFacts& facts, const PlacementSpec& placement) {
  const NcclCase& c = *plan.nccl_case;
  switch (choice.algorithm) {
    case NcclAlgorithmKind::nvls: {
      NcclBinding binding = every_port(facts, c.nvls_channels, c.nvls_channels, "NVLS channels");
      binding.bus_bandwidth_Bps = bus_of(choice.prediction, c.ranks);
      return binding;
    }
    case NcclAlgorithmKind::nvls_tree: {
      NcclBinding binding = every_port(facts, c.nvls_channels, c.nvls_channels, "NVLS channels");
      if (nvls_tree_network_binds(c) && !facts.nodes.empty() && !facts.nodes.front().nic_links.empty()) {
        // Each head leaves its node through its own NIC: one NVLS channel on each.
        binding.link = fmt::format("{} (every head's NIC alike)", facts.nodes.front().nic_links.front());
        binding.kind = "NIC";
        binding.sharers = 1;
      }
      binding.bus_bandwidth_Bps = bus_of(choice.prediction, c.ranks);
      return binding;
    }
    case NcclAlgorithmKind::tree:
      if (c.nodes > 1) {
        // The tally's rate x channels / edges is not NCCL's bus bandwidth for its tree: leave it unsaid.
        NcclBinding binding = from_use(nccl_tree_nic_use(facts, placement, c.channels), facts, c.channels, "tree edges");
        binding.bus_bandwidth_Bps = 0;
        return binding;
      }
      return every_port(facts, c.channels, c.channels, "channels");
    case NcclAlgorithmKind::ring:
    case NcclAlgorithmKind::pat: break;  // PAT: the ring's channels on the same NICs
  }
  if (c.nodes > 1) return from_use(nccl_rail_use(facts, placement, c.channels, plan.pxn()), facts, c.channels, "channels");
  NcclBinding binding = every_port(facts, c.channels, c.channels, "channels");
  binding.bus_bandwidth_Bps = c.search_channels * c.channel_bandwidth_Bps;
  return binding;
}

std::optional<NcclCaseExplanation> explain_nccl_case(const CaseResult& result, const ModelSettings& model) {
  const std::shared_ptr<const NcclPlan> plan = nccl_plan_of(result.spec, model);
  if (!plan || !plan->nccl_case || !model.nccl_facts || result.ranks < 2) return std::nullopt;
  NcclCaseExplanation explanation;
  for (const SizeResult& size : result.sizes) {
    const NcclChoice choice = plan->choice_at(size.bytes);
    if (choice.prediction.time_s <= 0) continue;  // NCCL's model has no time for it
    if (explanation.bands.empty() || !same_choice(explanation.bands.back().choice, choice))
      explanation.bands.push_back(NcclBand{size.bytes, size.bytes, choice, std::nullopt, false, 0, {}, 0});
    // A band is told at its largest size.
    NcclBand& band = explanation.bands.back();
    band.to_bytes = size.bytes;
    band.choice = choice;
    band.runner_up.reset();
    for (const NcclChoice& other : nccl_ranked_choices(*plan, size.bytes))
      if (!same_choice(other, choice)) {
        band.runner_up = other;
        break;
      }
    const double latency = choice.prediction.latency_s, transfer = static_cast<double>(size.bytes) / choice.prediction.algbw_Bps;
    band.latency_bound = latency > transfer;
    band.bound_share = std::max(latency, transfer) / (latency + transfer);
    band.binding = nccl_binding(*plan, choice, *model.nccl_facts, result.spec.placement);
    band.simulated_s = size.times_s.empty() ? 0 : size.median_s();
  }
  return explanation;
}

std::string nccl_binding_text(const NcclBinding& binding) {
  std::string text = fmt::format("{} {}, {} of {} {}", binding.kind, binding.link, binding.sharers, binding.of, binding.sharer);
  if (binding.bus_bandwidth_Bps > 0) text += fmt::format(", bus {:.1f} GB/s", binding.bus_bandwidth_Bps / 1e9);
  return text;
}

}  // namespace ringsim
