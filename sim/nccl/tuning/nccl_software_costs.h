// What NCCL's software spends on one allreduce call beyond moving its bytes, and no hardware
// description states: the kernel launch and the host side of the call (enqueue, the proxy thread's
// wake-up), per byte of the buffer a cost by protocol (the rate the protocol's steps lose to their
// own handshakes and copies, which the simulation's overlapped slices do not pay), and per step the thread blocks' flag handshake inside a node (over NVLink, or over PCIe and
// host memory) or, across nodes, the proxy's post and poll and the network transport's own cost (verbs
// for InfiniBand and RoCE, the OFI plugin for EFA and Slingshot, or sockets). The simulation spends it
// at the start of each call under the model made for NCCL (model key nccl.software). The defaults are
// learned across the corpus's clusters by tools/fit-nccl-costs.py and judged on each cluster left out
// of the fit (docs/software-costs.md).
#pragma once

#include "../../platform/topology.h"
#include "../../rank/collective_catalog.h"
#include "../../rank/nccl_rank_settings.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ringsim {

// The steps one call takes in a row, by kind of hop. A step is one slice moving over every hop of the
// algorithm at once, so a step that crosses a node boundary anywhere waits on the network's share.
//   ring:      2(N-1) steps; across nodes each has a network hop, on one node none.
//   tree:      up the chain inside a node and the tree between nodes, then down: 2(ranks per node - 1)
//              steps inside nodes, 2 ceil(log2 nodes) between them.
//   NVLS:      one reduction and one multicast through the NVSwitch: 2 steps inside the node.
//   NVLS tree: those 2 inside nodes, and the tree between nodes: 2 ceil(log2 nodes) network steps.
//   PAT:       one GPU per node; each rank sends N-1 pieces to other nodes: N-1 network steps.
struct NcclCallSteps {
  int intra = 0;  // steps whose hops all stay inside nodes
  int net = 0;    // steps with a hop between nodes
};
NcclCallSteps nccl_call_steps(NcclAlgorithmKind algorithm, int ranks, int nodes, Collective collective = Collective::all_reduce);

// How NCCL reaches the network: its IB verbs transport (InfiniBand, RoCE), the OFI plugin (EFA,
// Slingshot's cxi), or its socket transport (TCP).
enum class NcclNetPath { verbs, ofi, socket };
inline constexpr NcclNetPath kNcclNetPaths[] = {NcclNetPath::verbs, NcclNetPath::ofi, NcclNetPath::socket};
NcclNetPath nccl_net_path(NicTransport transport);
std::string_view nccl_net_path_name(NcclNetPath path);  // "verbs", "ofi", "socket"

// Seconds.
struct NcclSoftwareCosts {
  double call_s = 0;         // launch and host side, once per call
  double nvlink_step_s = 0;  // each step inside NVLink nodes
  double pcie_step_s = 0;    // each step inside nodes without NVLink
  std::array<double, 3> net_step_s{};  // each step across nodes, by NcclNetPath
  std::array<double, 3> per_gb_s{};    // each GB (1e9 bytes) of a ring's or tree's buffer, by protocol (NcclWire: LL, LL128, Simple)
  bool operator==(const NcclSoftwareCosts&) const = default;
};

// The defaults: the fit over every cluster of validate/traces/software-cost-fit.json.
const NcclSoftwareCosts& nccl_learned_software_costs();

// "15.9 us per call; per step inside nodes 0 us over NVLink, 0 us over PCIe; across nodes 0 us (verbs),
// 6.46 us (OFI), 9.3 us (sockets); per GB of the buffer 0 us (LL), 5260 us (LL128), 863 us (Simple)":
// for tables' headers.
std::string nccl_software_costs_text(const NcclSoftwareCosts& costs);

// What a call of COLLECTIVE by ALGORITHM under PROTOCOL on BYTES (nccl-tests' size) over RANKS ranks on
// NODES nodes spends, seconds: NVLINK says which intra-node step it pays, PATH which network step. Only
// rings and trees pay per GB: NVLS reduces in the NVSwitch, not step by step through a FIFO. The cost per
// GB is learned on all-reduce logs, per GB of their buffer; another collective pays it in proportion to
// what each rank moves against an all-reduce of its size (nccl-tests' busbw factors: an all-gather half).
// A ring's steps are NCCL's model's for the function (tuning.cc nsteps): 2(N-1) for all-reduce, N-1 for
// all-gather and reduce-scatter, N for broadcast and reduce; the point-to-point schedule's are its rounds,
// N-1 for alltoall and 1 for sendrecv.
struct NcclCallShape {
  NcclAlgorithmKind algorithm = NcclAlgorithmKind::ring;
  NcclWire protocol = NcclWire::simple;
  std::uint64_t bytes = 0;
  int ranks = 0;
  int nodes = 1;
  Collective collective = Collective::all_reduce;
};
double nccl_software_cost_s(const NcclSoftwareCosts& costs, const NcclCallShape& call, bool nvlink, NcclNetPath path);
// Its cost per GB alone for a ring or tree of COLLECTIVE on BYTES over RANKS ranks under PROTOCOL, seconds.
double nccl_per_gb_cost_s(const NcclSoftwareCosts& costs, NcclWire protocol, std::uint64_t bytes, int ranks, Collective collective);

}  // namespace ringsim
