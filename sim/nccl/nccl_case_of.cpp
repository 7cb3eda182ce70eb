#include "nccl_case_of.h"

#include "nccl_rails.h"

#include <algorithm>

namespace ringsim {

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
    const int doubled = settings.version.at_least(2, 5) ? 2 : 1;
    c.search_channels = search;
    c.channels = settings.channels.value_or(std::min(doubled * search, kNcclMaxChannels));
    const NcclRailUse use = nccl_rail_use(*model.nccl_facts, placement, c.channels);
    c.channel_bandwidth_Bps = use.bus_bandwidth_Bps / search;
    // NVLS trees pair each node's heads across nodes: as many ranks on every node, each beside a NIC
    // of its own (the heads ringsim models; NCCL also runs them with fewer NICs than GPUs).
    const int per_node = c.ranks / c.nodes;
    if (placement.same_ranks_on_each_node() && per_node >= 2 && c.nic_beside_gpu && search == per_node &&
        nccl_nvls_hardware(settings, *model.nccl_facts, settings.version.at_least(2, 18))) {
      nccl_set_nvls(c, settings, *model.nccl_facts, per_node);
      c.nvls_inter_Bps = std::min(model.nccl_facts->nic_bandwidth_Bps, 2 * c.nvls_channel_Bps);
    }
  }
  return c;
}

std::optional<NcclHandshake> nccl_handshake_of(const ModelSettings& model, const PlacementSpec& placement,
                                               std::string_view algorithm) {
  if (algorithm != "nccl_ring" && algorithm != "nccl") return std::nullopt;
  if (model.network != "NCCL" || !model.effective_nccl().handshake) return std::nullopt;
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (!c || c->nvlink) return std::nullopt;
  return nccl_simple_handshake(*c);
}

std::optional<NcclHandshake> nccl_ll128_hops_of(const ModelSettings& model, const PlacementSpec& placement,
                                                std::string_view algorithm) {
  if (algorithm != "nccl_ring" && algorithm != "nccl") return std::nullopt;
  if (model.network != "NCCL" || !model.effective_nccl().handshake) return std::nullopt;
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (!c || !nccl_protocol_enabled(*c, NcclProtocol::ll128)) return std::nullopt;
  return nccl_ll128_hop_extra(*c);
}

std::optional<NcclBlockRates> nccl_block_rates_of(const ModelSettings& model, const PlacementSpec& placement,
                                                  std::string_view algorithm) {
  if (algorithm != "nccl_ring" && algorithm != "nccl") return std::nullopt;
  if (model.network != "NCCL") return std::nullopt;
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (!c || c->ranks < 2 || c->channels < 1) return std::nullopt;
  return NcclBlockRates{nccl_ring_bus_GBps(*c, NcclProtocol::ll) * 1e9, nccl_ring_bus_GBps(*c, NcclProtocol::ll128) * 1e9};
}

std::optional<NcclTreeHops> nccl_tree_hops_of(const ModelSettings& model, const PlacementSpec& placement,
                                              std::string_view algorithm) {
  if (algorithm != "nccl_tree" && algorithm != "nccl") return std::nullopt;
  if (model.network != "NCCL") return std::nullopt;
  const std::optional<NcclCase> c = nccl_case_of(model, placement);
  if (!c || c->nodes < 2) return std::nullopt;
  return nccl_tree_hops(*c);
}

bool nccl_paces_slices(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm) {
  return nccl_handshake_of(model, placement, algorithm).has_value() || nccl_ll128_hops_of(model, placement, algorithm).has_value() ||
         nccl_block_rates_of(model, placement, algorithm).has_value() ||
         nccl_tree_hops_of(model, placement, algorithm).has_value() || nccl_nvls_run_of(model, placement, algorithm).has_value();
}

NcclProtocol nccl_protocol_at(const ModelSettings& model, const std::optional<NcclCase>& c, std::uint64_t bytes) {
  const NcclProtocol requested = model.effective_nccl().protocol;
  if (requested != NcclProtocol::auto_choice) return requested;
  return c ? nccl_predict(*c, requested, bytes).protocol : NcclProtocol::simple;
}

std::optional<NcclNvlsRun> nccl_nvls_run_of(const ModelSettings& model, const PlacementSpec& placement, std::string_view algorithm) {
  if (algorithm != "nccl_nvls" && algorithm != "nccl_nvls_tree" && algorithm != "nccl") return std::nullopt;
  const NcclSettings settings = model.effective_nccl();
  if (algorithm == "nccl") {
    const std::optional<NcclCase> c = nccl_case_of(model, placement);
    if (!c || !(nccl_nvls_possible(*c) || nccl_nvls_tree_possible(*c))) return std::nullopt;
  }
  return NcclNvlsRun{nccl_nvls_efficiency(settings.compute_capability), nccl_nvls_latency_s(settings.version)};
}

bool is_nccl_algorithm(std::string_view algorithm) {
  return algorithm == "nccl_ring" || algorithm == "nccl_tree" || algorithm == "nccl_nvls" || algorithm == "nccl_nvls_tree" ||
         algorithm == "nccl";
}

std::optional<NcclChoice> nccl_choice_at(const ModelSettings& model, const std::optional<NcclCase>& c,
                                         std::string_view algorithm, std::uint64_t bytes) {
  if (!is_nccl_algorithm(algorithm)) return std::nullopt;
  const NcclProtocol requested = model.effective_nccl().protocol;
  const NcclAlgorithmKind kind = algorithm == "nccl_tree"   ? NcclAlgorithmKind::tree
                                 : algorithm == "nccl_nvls" ? NcclAlgorithmKind::nvls
                                 : algorithm == "nccl_nvls_tree" ? NcclAlgorithmKind::nvls_tree
                                                            : NcclAlgorithmKind::ring;
  if (!c) {
    NcclChoice fallback{kind, {}};
    fallback.prediction.protocol = requested == NcclProtocol::auto_choice ? NcclProtocol::simple : requested;
    fallback.prediction.time_s = -1;  // no model without NCCL's view of the platform
    return fallback;
  }
  if (algorithm == "nccl") return nccl_choose(*c, requested, bytes);
  if (kind == NcclAlgorithmKind::tree) return NcclChoice{kind, nccl_tree_predict(*c, requested, bytes)};
  if (kind == NcclAlgorithmKind::nvls || kind == NcclAlgorithmKind::nvls_tree) {
    if (kind == NcclAlgorithmKind::nvls && nccl_nvls_possible(*c)) return NcclChoice{kind, nccl_nvls_time(*c, bytes)};
    if (kind == NcclAlgorithmKind::nvls_tree && nccl_nvls_tree_possible(*c)) return NcclChoice{kind, nccl_nvls_tree_time(*c, bytes)};
    NcclChoice unmodelled{kind, {}};  // NCCL would not run NVLS here: no model time
    unmodelled.prediction.time_s = -1;
    return unmodelled;
  }
  return NcclChoice{kind, nccl_predict(*c, requested, bytes)};
}

}  // namespace ringsim
