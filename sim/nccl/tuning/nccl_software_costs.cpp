#include "nccl_software_costs.h"

#include <bit>
#include <fmt/format.h>

namespace ringsim {

namespace {

// A ring's steps in a row for COLLECTIVE (nccl_software_costs.h).
int ring_steps(Collective collective, int ranks) {
  switch (collective) {
    case Collective::all_reduce: return 2 * (ranks - 1);
    case Collective::all_gather:
    case Collective::reduce_scatter:
    case Collective::alltoall: return ranks - 1;
    case Collective::broadcast:
    case Collective::reduce: return ranks;
    case Collective::sendrecv: return 1;
  }
  return 2 * (ranks - 1);
}

}  // namespace

NcclCallSteps nccl_call_steps(NcclAlgorithmKind algorithm, int ranks, int nodes, Collective collective) {
  const int per_node = nodes > 0 ? ranks / nodes : ranks;
  // The tree between nodes is ceil(log2 nodes) deep.
  const int tree_net = nodes > 1 ? 2 * static_cast<int>(std::bit_width(static_cast<unsigned>(nodes - 1))) : 0;
  switch (algorithm) {
    case NcclAlgorithmKind::ring: {
      const int steps = ring_steps(collective, ranks);
      return nodes > 1 ? NcclCallSteps{0, steps} : NcclCallSteps{steps, 0};
    }
    case NcclAlgorithmKind::tree: return {2 * (per_node - 1), tree_net};
    case NcclAlgorithmKind::nvls: return {2, 0};
    case NcclAlgorithmKind::nvls_tree: return {2, tree_net};
    // PAT: each rank sends and receives N-1 chunks of a channel's part, each to or from another node.
    case NcclAlgorithmKind::pat: return {0, ranks - 1};
  }
  return {};
}

NcclNetPath nccl_net_path(NicTransport transport) {
  switch (transport) {
    case NicTransport::ib:
    case NicTransport::roce: return NcclNetPath::verbs;
    case NicTransport::efa:
    case NicTransport::cxi: return NcclNetPath::ofi;
    case NicTransport::tcp: break;
  }
  return NcclNetPath::socket;
}

std::string_view nccl_net_path_name(NcclNetPath path) {
  return path == NcclNetPath::verbs ? "verbs" : path == NcclNetPath::ofi ? "ofi" : "socket";
}

const NcclSoftwareCosts& nccl_learned_software_costs() {
  // tools/fit-nccl-costs.py over validate/traces/software-cost-fit.json (docs/software-costs.md): per
  // call 14.8 us; per step across nodes 6.46 us through the OFI plugin and 9.3 us over sockets; per GB
  // of the buffer 5.26 ms under LL128 and 0.863 ms under Simple (rings and trees); the NVLink, PCIe and
  // verbs steps came out at zero, and LL has no cost per GB (it runs only small sizes).
  static const NcclSoftwareCosts learned{14.8e-6, 0, 0, {0, 6.46e-6, 9.3e-6}, {0, 5.26e-3, 0.863e-3}};
  return learned;
}

std::string nccl_software_costs_text(const NcclSoftwareCosts& costs) {
  const auto us = [](double seconds) { return fmt::format("{:g} us", seconds * 1e6); };
  return fmt::format("{} per call; per step inside nodes {} over NVLink, {} over PCIe; across nodes {} (verbs), {} (OFI), {} (sockets); "
                     "per GB of the buffer {} (LL), {} (LL128), {} (Simple)",
                     us(costs.call_s), us(costs.nvlink_step_s), us(costs.pcie_step_s), us(costs.net_step_s[0]),
                     us(costs.net_step_s[1]), us(costs.net_step_s[2]), us(costs.per_gb_s[0]), us(costs.per_gb_s[1]),
                     us(costs.per_gb_s[2]));
}

double nccl_software_cost_s(const NcclSoftwareCosts& costs, const NcclCallShape& call, bool nvlink, NcclNetPath path) {
  const NcclCallSteps steps = nccl_call_steps(call.algorithm, call.ranks, call.nodes, call.collective);
  // NVLS and NVLS trees reduce in the NVSwitch rather than step by step through a FIFO: no cost per GB;
  // one rank moves nothing.
  const bool fifo_steps = call.algorithm == NcclAlgorithmKind::ring || call.algorithm == NcclAlgorithmKind::tree ||
                          call.algorithm == NcclAlgorithmKind::pat;
  return costs.call_s + steps.intra * (nvlink ? costs.nvlink_step_s : costs.pcie_step_s) +
         steps.net * costs.net_step_s[static_cast<std::size_t>(path)] +
         (fifo_steps ? nccl_per_gb_cost_s(costs, call.protocol, call.bytes, call.ranks, call.collective) : 0);
}

double nccl_per_gb_cost_s(const NcclSoftwareCosts& costs, NcclWire protocol, std::uint64_t bytes, int ranks, Collective collective) {
  if (ranks < 2) return 0;
  const double all_reduce_gb =
      static_cast<double>(bytes) / 1e9 * busbw_factor(collective, ranks) / busbw_factor(Collective::all_reduce, ranks);
  return all_reduce_gb * costs.per_gb_s[static_cast<std::size_t>(protocol)];
}

}  // namespace ringsim
