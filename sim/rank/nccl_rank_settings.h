// nccl_ring's (nccl_tree's, nccl's) parameters for one size, as the rank program receives them (rank_options.h): the
// launcher derives them from the model key "nccl" and picks the protocol per size.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ringsim {

enum class NcclWire { ll, ll128, simple };

// The algorithm the nccl algorithm runs at one size (nccl_ring and nccl_tree run their own).
// pat: PAT, all-gather and reduce-scatter with one GPU per node.
enum class NcclAlgorithmKind { ring, tree, nvls, nvls_tree, pat };
inline constexpr std::array kNcclAlgorithmKinds{NcclAlgorithmKind::ring, NcclAlgorithmKind::tree, NcclAlgorithmKind::nvls,
                                                NcclAlgorithmKind::nvls_tree, NcclAlgorithmKind::pat};

// NCCL's name of each ("Ring", "Tree", "NVLS", "NVLSTree", "PAT"): what the launcher passes in
// --nccl-algorithms and the tables print, and what the rank program reads back.
constexpr std::string_view nccl_algorithm_name(NcclAlgorithmKind algorithm) {
  switch (algorithm) {
    case NcclAlgorithmKind::ring: return "Ring";
    case NcclAlgorithmKind::tree: return "Tree";
    case NcclAlgorithmKind::nvls: return "NVLS";
    case NcclAlgorithmKind::nvls_tree: return "NVLSTree";
    case NcclAlgorithmKind::pat: return "PAT";
  }
  return "Ring";
}

// What NCCL's enqueue code and kernels of one release decide that the rank program follows (the launcher
// reads them off the release: sim/nccl/tuning/nccl_enqueue_rules.h); defaults are 2.18's.
struct NcclEnqueueRules {
  bool tree_split_simple = true;  // the tree's reduction and broadcast side by side (runTreeSplit) under Simple: 2.8 on
  bool tree_split_ll = true;      // the same under LL: 2.10 on (LL128 always)
  std::uint64_t nvls_tree_chunk = 512u << 10;  // the NVLS tree's first chunk: NCCL_BUFFSIZE / 8, 128 KiB from 2.21
  bool nvls_tree_64k_from_4_nodes = false;     // the NVLS tree's chunk at most 64 KiB from 4 nodes: 2.19 on
  int nvls_first_halving = 64;  // NVLS on one node: 64 KiB chunks below this many x channels x heads chunks (32 in 2.17)
};

// NCCL's point-to-point schedule of one communicator (nccl_p2p: alltoall, sendrecv), as the launcher
// reads it off the release and the case (sim/nccl/tuning/nccl_p2p_rules.h): paths.cc's channel counts,
// init.cc's chunk size, and the rate of one channel's thread block. 0 channels: not given.
struct NcclP2pRun {
  int channels = 0;               // p2pnChannels: the channels p2p operations are spread over (a power of 2)
  int channels_per_peer = 0;      // p2pnChannelsPerPeer: at most this many channels per send or receive (a power of 2)
  std::uint64_t chunk_bytes = 128u << 10;  // p2pChunkSize: one FIFO step of Simple
  double block_Bps = 0;           // what one channel's thread block copies, send and receive together (0: unpaced)
  // Every chunk its own message, even where the engine can pace a whole part as one (nccl_p2p_collectives.cpp):
  // the schedule as NCCL steps it, for comparing the two.
  bool flow_per_chunk = false;
};

struct NcclRankSettings {
  int channels = 2;
  std::uint64_t buffsize = 4ULL << 20;  // NCCL_BUFFSIZE: Simple's 8 steps
  NcclWire protocol = NcclWire::simple;
  // Simple's handshake per slice on the channel's thread block (fence, post, the peer's poll), before
  // the slice's send may start: to a GPU of the same node, and to another node. 0: none.
  double handshake_intra_s = 0;
  double handshake_net_s = 0;
  // LL128's hop latency beyond LL's (which the links carry), to a GPU of the same node and to another
  // node: a latency each LL128 slice pays on its way. 0: none.
  double ll128_hop_intra_s = 0;
  double ll128_hop_net_s = 0;
  // LL's and LL128's pace: bytes of data per second the thread blocks of all the channels that run move
  // together (NCCL's model's bus bandwidth for the protocol), each block its share. 0: the wire alone
  // paces them.
  double ll_bus_Bps = 0;
  double ll128_bus_Bps = 0;
  // nccl_tree's thread block per chunk it sends to another node, under LL and LL128: NCCL's model's
  // tree network hop less its ring's (tuning.cc), which the links' latencies already carry. 0: none.
  double tree_hop_ll_s = 0;
  double tree_hop_ll128_s = 0;
  // nccl_nvls: NCCL's NVLS efficiency for the GPU generation (the share of NVLink its traffic gets) and
  // its model's NVLS latency, spent once per call (tuning.cc).
  double nvls_efficiency = 1;
  double nvls_latency_s = 0;
  NcclAlgorithmKind algorithm = NcclAlgorithmKind::ring;
  NcclEnqueueRules rules;
  NcclP2pRun p2p;  // nccl_p2p only
  // NCCL's software cost of one call (launch, host side, the proxy's and plugin's per-step costs:
  // sim/nccl/tuning/nccl_software_costs.h), spent before the call's first transfer. 0: none.
  double software_s = 0;
};

}  // namespace ringsim
