// nccl_ring's (nccl_tree's, nccl's) parameters for one size, as the rank program receives them (rank_options.h): the
// launcher derives them from the model key "nccl" and picks the protocol per size.
#pragma once

#include <cstdint>

namespace ringsim {

enum class NcclWire { ll, ll128, simple };

// The algorithm the nccl algorithm runs at one size (nccl_ring and nccl_tree run their own).
enum class NcclAlgorithmKind { ring, tree, nvls, nvls_tree };

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
  int version = 218;  // NCCL's version as major x 100 + minor: how nccl_tree runs its two phases
};

}  // namespace ringsim
