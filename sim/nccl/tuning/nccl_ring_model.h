// NCCL's own time model of its ring (src/graph/tuning.cc), per version, and the case it prices: what
// NCCL's topology search finds on a platform (its facts) and the communicator it builds for a number of
// ranks and nodes. Typed values only: the case of a scenario's placement is sim/nccl/nccl_plan.h.
#pragma once

#include "nccl_settings.h"
#include "../../platform/topology.h"

#include <cstdint>

namespace ringsim {

// NCCL's own time model of its ring allreduce (src/graph/tuning.cc: ncclTopoTuneModel and
// ncclTopoGetAlgoTime), per version: time = latency + bytes / algorithm bandwidth, with
//   latency = base + (steps - inter-node steps) x intra-node hop + inter-node steps x network hop,
//   times a "plateau" factor for Simple on several nodes, and
//   algorithm bandwidth = bus bandwidth x protocol factor x N / (2(N-1)).
// One nccl_ring case as that model sees it:
struct NcclCase {
  NcclVersion version;
  const NcclRelease* release = &nccl_release_of(version);  // what VERSION's sources hold (set_version)
  int compute_capability = 80;
  int ranks = 1;
  int nodes = 1;
  int search_channels = 1;          // the ring channels NCCL's topology search finds (graph->nChannels)
  double channel_bandwidth_Bps = 0;  // the search's bandwidth per channel (graph->bwInter / bwIntra)
  int channels = 2;                 // what the communicator runs (comm->nChannels): twice the search's
  bool nvlink = false;              // intra-node hops are NVLink (else PCIe)
  NcclNetPath net_path = NcclNetPath::socket;  // how NCCL reaches the network (nccl_software_costs.h)
  bool nic_beside_gpu = false;      // every rank's GPU has a NIC on its own PCIe switch (NCCL's typeInter <= PXB)
  // NVLS (NVLink SHARP) where NCCL would enable it (nccl_nvls_costs.h): every rank on one NVSwitch node
  // of Hopper or later GPUs, NCCL 2.17 on; across such nodes (NVLS trees, 2.18 on) as many ranks on
  // each, each beside its own NIC. Its search's channels (one head per GPU), their NVLink bandwidth
  // each, and across nodes their network bandwidth (bwInter: the NIC's, at most twice bwIntra, as the
  // search's second pass raises it); 0 channels: no NVLS.
  int nvls_channels = 0;
  double nvls_channel_Bps = 0;
  double nvls_inter_Bps = 0;
  // The latency the network plugin reports to NCCL, us (ncclNetProperties_t.latency; model key
  // nccl.net_latency): 0 for NCCL's own IB and socket transports, which leave it unset.
  double net_latency_us = 0;

  // VERSION and its release's row, read once here.
  void set_version(const NcclVersion& named) {
    version = named;
    release = &nccl_release_of(named);
  }
};

// NCCL's collective functions its time model prices (ncclFunc_t, in its order). The ring runs each;
// NCCL's trees, NVLS and NVLS trees are priced for all_reduce only here (NVLS for all-gather and
// reduce-scatter: nccl_nvls_costs.h; PAT is not modelled).
enum class NcclFunction { broadcast, reduce, all_gather, reduce_scatter, all_reduce };

// One network hop's latency in NCCL's model, us: the hardware's, HW_US (tuning.cc hwLat), with the
// plugin's latency (NcclCase::net_latency_us) as tuning.cc takes it: not before 2.12 (graph->latencyInter
// came with it); 2.12-2.17 the plugin's instead of the hardware's when it reports one; from 2.18 added
// to it, and under Simple added twice ("Also add the flush extra latency").
double nccl_network_hop_us(const NcclCase& c, double hw_us, NcclProtocol protocol);

struct NcclPrediction {
  NcclProtocol protocol = NcclProtocol::simple;
  double latency_s = 0;
  double algbw_Bps = 0;  // bytes per second of buffer
  double time_s = 0;
};

// NCCL's time for BYTES under PROTOCOL at LATENCY_S and ALGBW_BPS (tuning.cc: latency + size / bandwidth).
NcclPrediction nccl_prediction(NcclProtocol protocol, double latency_s, double algbw_Bps, std::uint64_t bytes);

// Simple's handshake per slice and hop, in seconds: the version's Simple hop latency less LL's
// (tuning.cc), inside a node (NVLink or PCIe) and across nodes. LL pays its hop latency on the wire;
// what Simple pays beyond it is its thread block's fence and post and the peer's poll of the flag.
struct NcclHandshake {
  double intra_s = 0;
  double net_s = 0;
};
NcclHandshake nccl_simple_handshake(const NcclCase& c);

// LL128's hop latency less LL's, in seconds (tuning.cc hwLat): inside a node (NVLink or PCIe) and
// across nodes (the ring's network hop, the tree's with one rank per node from 2.23): 1.3 us over NVLink
// and across nodes from 2.7, 2.1 and 1.6 in 2.5-2.6.
NcclHandshake nccl_ll128_hop_extra(const NcclCase& c);

// The bus bandwidth NCCL's model gives its ring under PROTOCOL (auto_choice is not one), GB/s: the
// search's channels at their bandwidth, with LL's factor and cap and LL128's (tuning.cc).
double nccl_ring_bus_GBps(const NcclCase& c, NcclProtocol protocol, NcclFunction function = NcclFunction::all_reduce);

// NCCL's model for one protocol (auto_choice is not a protocol here: see nccl_predict).
// A protocol's index in the per-protocol tables of NCCL's tuning.cc (kNcclLL, kNcclLL128, kNcclSimple).
int nccl_protocol_index(NcclProtocol protocol);

// FUNCTION's ring (tuning.cc): 2(N-1) steps for all-reduce, N-1 for all-gather and reduce-scatter, N
// for broadcast and reduce (a chain, every step at one hop's latency); algorithm bandwidth = bus x N /
// steps. BYTES as NCCL counts them (enqueue.cc): all-gather's and reduce-scatter's whole buffer of N
// ranks' shares, as nccl-tests' size column; the others' buffer.
NcclPrediction nccl_ring_time(const NcclCase& c, NcclProtocol protocol, std::uint64_t bytes,
                              NcclFunction function = NcclFunction::all_reduce);

// LL's cap on the bus bandwidth in GB/s (llMaxBws, 2.8 on, ring and tree), by GPU, CPU and nodes.
double nccl_ll_max_GBps(const NcclCase& c);

// Whether NCCL enables PROTOCOL without NCCL_PROTO: LL128 only on NVLink nodes of Volta (2.5 on),
// Ampere (2.7 on) or Hopper (2.16 on) GPUs, and across nodes only where each GPU's NIC sits on its
// PCIe switch (tuning.cc: typeInter <= PXB; 2.5-2.6 <= LINK_PCI), as on DGX-class nodes with GPUDirect
// RDMA; never through the CPU or over sockets.
bool nccl_protocol_enabled(const NcclCase& c, NcclProtocol protocol);

// NCCL 2.4's channels for an LL call of BYTES (enqueue.cc getKernelInfo: enough for at most 8 bytes per
// thread and chunk, up to the communicator's); its Simple calls run on all of them.
int nccl24_ll_channels(const NcclCase& c, std::uint64_t bytes);

// REQUESTED, or with auto_choice the enabled protocol NCCL's model predicts fastest (as NCCL picks).
NcclPrediction nccl_predict(const NcclCase& c, NcclProtocol requested, std::uint64_t bytes,
                            NcclFunction function = NcclFunction::all_reduce);

// What NCCL's search would find on TOPOLOGY (per node, the slowest node's).
NcclTopologyFacts nccl_topology_facts(const Topology& topology);

// The case of RANKS ranks on NODES nodes under SETTINGS: channels default to twice the search's
// (one search channel per NIC across nodes, one inside a single node).
NcclCase nccl_case(const NcclSettings& settings, const NcclTopologyFacts& facts, int ranks, int nodes);

// Whether the platform has NVLS's hardware (an NVSwitch's multicast on Hopper or later GPUs) and the
// release runs it (RELEASE_HAS_IT); nccl_set_nvls gives case C the NVLS search's heads (GPUS per node).
bool nccl_nvls_hardware(const NcclSettings& settings, const NcclTopologyFacts& facts, bool release_has_it);
void nccl_set_nvls(NcclCase& c, const NcclSettings& settings, const NcclTopologyFacts& facts, int gpus);

// How fast the thread blocks of the channels that run move LL's and LL128's data together, bytes of
// data per second: NCCL's bus bandwidth for the protocol, each block its share (nccl_launch.h: a small
// call runs on fewer channels, each faster). In NCCL's model LL reaches a quarter of
// the channel's bandwidth before 2.21 (half for its flags, half for its polling) and half from then,
// both capped by llMaxBws from 2.8; the wire carries only the flags' half, so the block paces the rest.
// LL128 gets 0.92 of the bus (120/128 before 2.7), capped per channel.
struct NcclBlockRates {
  double ll_Bps = 0;
  double ll128_Bps = 0;
};

// nccl_tree's thread block per chunk it sends to another node, under LL and LL128, in seconds: NCCL's
// model's tree network hop less its ring's (tuning.cc: 5.0 - 0.9 and 7.5 - 2.5 us in 2.5-2.6, 5.0 - 2.7
// and 8.5 - 4.0 from 2.7), which the links' latencies, shared with the ring, already carry. Simple's
// tree hop is a chunk's transfer time (tuning.cc says so), which the links simulate: none.
struct NcclTreeHops {
  double ll_s = 0;
  double ll128_s = 0;
};
NcclTreeHops nccl_tree_hops(const NcclCase& c);

}  // namespace ringsim
