#include "candidate_mechanisms.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

namespace ringsim {

const std::vector<CandidateMechanism>& candidate_mechanisms() {
  static const std::vector<CandidateMechanism> table = {
      {MechanismId::half_nics, "half the NICs", "half the NICs per node in use",
       "the NICs NCCL lists (\"NET/IB : Using [0]mlx5_0:1/IB ...\") and the devices of the \"via NET/IB/<dev>\" lines",
       "NCCL used half the node's NICs (NCCL_IB_HCA, a NIC down or not found): the bytes between nodes share half the ports"},
      {MechanismId::gdr_off, "GDR off", "GPUDirect RDMA off: network transfers staged in host memory",
       "\"/GDRDMA\" on the \"via NET/...\" lines (its absence confirms), NCCL_NET_GDR_LEVEL, nvidia-peermem loaded",
       "NCCL staged every transfer between nodes in host memory instead of GPUDirect RDMA"},
      {MechanismId::two_channels, "2 channels", "nccl.channels 2",
       "the \"Channel 00/02 :\" lines (their count), NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS",
       "NCCL ran 2 channels, fewer than its topology search gives the hardware"},
      {MechanismId::oversubscribed_switch, "2:1 switch", "the switch's backplane at half its ports' rate",
       "no INFO line states it: the switch's model and port counters, or ib_write_bw between every node pair at once",
       "the switch between the nodes is oversubscribed 2:1 (or shared with other jobs)"},
      {MechanismId::pxn_off, "PXN off", "nccl.pxn false (NCCL_PXN_DISABLE=1)",
       "NCCL_PXN_DISABLE in the environment lines; rails crossed on the \"via NET\" lines",
       "NCCL did not route through an NVLink peer's NIC (PXN), so transfers crossed rails through the spine"},
      {MechanismId::per_call_cost, "extra per-call cost", "a cost added once per call, fitted to the smallest sizes",
       "nccl-tests' time at the smallest sizes against a CUDA-graph run (-G 1), NCCL_DEBUG=TRACE timings, NCCL_LAUNCH_MODE",
       "each call paid a cost the hardware does not explain (launch, host synchronisation, a slow proxy thread)"},
      {MechanismId::rate_ceiling, "a rate ceiling", "the bus bandwidth capped at the rate the run levels off at, fitted to the largest sizes",
       "a run with twice the log's channels (NCCL_MIN_NCHANNELS): a ceiling per channel doubles the rate, a port's does not; "
       "the NICs' link rate (ibstat, ethtool) and ib_write_bw between two nodes; without \"/GDRDMA\" on the \"via NET\" lines, "
       "GPUDirect RDMA (nvidia-peermem, NCCL_NET_GDR_LEVEL)",
       "the run levels off below the rate its hardware allows: each channel is capped (a thread block's copy, the staging "
       "of a channel's buffers through host memory) or a port runs slower than described"},
  };
  return table;
}

const CandidateMechanism& candidate_mechanism(MechanismId id) {
  for (const CandidateMechanism& candidate : candidate_mechanisms())
    if (candidate.id == id) return candidate;
  throw std::logic_error("candidate_mechanism: unknown id");
}

namespace {

int most_nics(const Topology& topology) {
  int nics = 0;
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes) nics = std::max(nics, node.nics);
  return nics;
}

bool any_gdr(const Topology& topology) {
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes)
      if (node.gdr) return true;
  return false;
}

// The NICs the log shows in use on a node: the devices its hops name, else the NICs NCCL lists.
std::optional<int> nics_in_use(const NcclRunFacts& facts) {
  std::set<int> devices;
  for (const NcclNetworkHop& hop : facts.network_hops) devices.insert(hop.device);
  if (!devices.empty()) return static_cast<int>(devices.size());
  if (!facts.nics.empty()) return static_cast<int>(facts.nics.size());
  return std::nullopt;
}

// The rack switch's rate when oversubscribed 2:1: half its ports' (NICs and uplink) total. Every
// flow crosses the backplane once, so that total is what the ports can send at once; a non-blocking
// switch is modelled with twice it (topology_json.cpp size_nonblocking_switches).
double half_backplane_Bps(const Topology& topology, const RackSpec& rack) {
  double ports = topology.spine ? rack.uplink.bandwidth_Bps : 0;
  for (const NodeSpec& node : rack.nodes) ports += node.nic.bandwidth_Bps * node.nics;
  return ports / 2;
}

CandidateStanding half_nics_standing(const Topology& topology, const NcclRunFacts* facts) {
  const int nics = most_nics(topology);
  if (nics < 2) return {nullptr, false, LogStanding::silent, "one NIC per node"};
  const auto used = facts ? nics_in_use(*facts) : std::nullopt;
  if (!used) return {};
  if (*used >= nics) return {nullptr, true, LogStanding::excluded, fmt::format("the log shows {} NICs in use of {}", *used, nics)};
  if (*used * 2 <= nics) return {nullptr, true, LogStanding::confirmed, fmt::format("the log shows {} NICs in use of {}", *used, nics)};
  return {};
}

CandidateStanding gdr_standing(const Topology& topology, const NcclRunFacts* facts) {
  if (!any_gdr(topology)) return {nullptr, false, LogStanding::silent, "the topology has no GPUDirect RDMA already"};
  if (!facts || facts->network_hops.empty()) return {};
  if (facts->any_gdr()) return {nullptr, true, LogStanding::excluded, "the log's network hops show /GDRDMA"};
  return {nullptr, true, LogStanding::confirmed, "the log's network hops show no /GDRDMA"};
}

CandidateStanding channels_standing(const ModelSettings& model, const NcclRunFacts* facts) {
  const NcclSettings nccl = model.effective_nccl();
  if (nccl.channels && *nccl.channels <= 2) return {nullptr, false, LogStanding::silent, fmt::format("the model runs {} channels already", *nccl.channels)};
  if (!facts || !facts->channels) return {};
  const LogStanding standing = *facts->channels == 2 ? LogStanding::confirmed : LogStanding::excluded;
  return {nullptr, true, standing, fmt::format("the log lists {} channels", *facts->channels)};
}

CandidateStanding switch_standing(const Topology& topology) {
  if (topology.rails) return {nullptr, false, LogStanding::silent, "a rail fabric (its oversubscription is the topology's own key)"};
  for (const RackSpec& rack : topology.racks)
    if (rack.nodes.size() >= 2 && rack.switch_link.bandwidth_Bps > half_backplane_Bps(topology, rack)) return {};
  return {nullptr, false, LogStanding::silent, "no rack switch joins two nodes faster than 2:1"};
}

CandidateStanding pxn_standing(const Topology& topology, const ModelSettings& model, const NcclRunFacts* facts) {
  if (!topology.rails || !model.effective_nccl().uses_pxn())
    return {nullptr, false, LogStanding::silent, topology.rails ? "PXN is off already (or not in this NCCL release)" : "no rail fabric"};
  if (!facts) return {};
  const auto it = facts->environment.find("NCCL_PXN_DISABLE");
  if (it == facts->environment.end()) return {};
  const LogStanding standing = it->second == "1" ? LogStanding::confirmed : LogStanding::excluded;
  return {nullptr, true, standing, fmt::format("the log sets NCCL_PXN_DISABLE={}", it->second)};
}

// Whether ID changes only what a call between nodes crosses (NICs, their DMA path, the switch, the rails).
bool changes_the_network(MechanismId id) {
  switch (id) {
    case MechanismId::half_nics:
    case MechanismId::gdr_off:
    case MechanismId::oversubscribed_switch:
    case MechanismId::pxn_off: return true;
    case MechanismId::two_channels:
    case MechanismId::per_call_cost:
    case MechanismId::rate_ceiling: return false;
  }
  return false;
}

CandidateStanding standing_of(MechanismId id, const Topology& topology, const ModelSettings& model, const NcclRunFacts* facts) {
  switch (id) {
    case MechanismId::half_nics: return half_nics_standing(topology, facts);
    case MechanismId::gdr_off: return gdr_standing(topology, facts);
    case MechanismId::two_channels: return channels_standing(model, facts);
    case MechanismId::oversubscribed_switch: return switch_standing(topology);
    case MechanismId::pxn_off: return pxn_standing(topology, model, facts);
    case MechanismId::per_call_cost:
    case MechanismId::rate_ceiling: return {};
  }
  return {};
}

}  // namespace

std::vector<CandidateStanding> candidate_standings(const Topology& topology, const ModelSettings& model,
                                                   const NcclRunFacts* facts, bool crosses_nodes) {
  std::vector<CandidateStanding> standings;
  for (const CandidateMechanism& candidate : candidate_mechanisms()) {
    standings.push_back(crosses_nodes || !changes_the_network(candidate.id)
                            ? standing_of(candidate.id, topology, model, facts)
                            : CandidateStanding{nullptr, false, LogStanding::silent, "the run stays inside one node"});
    standings.back().candidate = &candidate;
  }
  return standings;
}

void apply_mechanism(MechanismId id, Topology& topology, ModelSettings& model) {
  NcclSettings nccl = model.effective_nccl();
  for (RackSpec& rack : topology.racks) {
    if (id == MechanismId::oversubscribed_switch && rack.nodes.size() >= 2) {
      rack.switch_link.bandwidth_Bps = std::min(rack.switch_link.bandwidth_Bps, half_backplane_Bps(topology, rack));
      rack.switch_nonblocking = false;
    }
    for (NodeSpec& node : rack.nodes) {
      if (id == MechanismId::half_nics && node.nics >= 2) {
        node.nics /= 2;
        node.nic_affinity.clear();  // GPU g beside NIC g * nics / gpus
      }
      if (id == MechanismId::gdr_off) {
        node.gdr = false;
        // An NVLink node stages over each GPU's own PCIe link: host_pcie's default where gdr is false
        // (docs/topology-format.md: 12GBps, 0.5us).
        if (node.intra_kind == IntraKind::nvlink && node.host_pcie.bandwidth_Bps == 0) node.host_pcie = LinkSpec{12e9, 0.5e-6};
      }
    }
  }
  if (id == MechanismId::two_channels) nccl.channels = 2;
  if (id == MechanismId::pxn_off) nccl.pxn_disabled = true;
  if (id == MechanismId::two_channels || id == MechanismId::pxn_off) model.nccl = nccl;
}

}  // namespace ringsim
