// Command line of the rank program (written by the launcher, so errors here are launcher bugs or
// hand-made runs; they are reported by rank 0 and abort the run).
#pragma once

#include "collective_catalog.h"
#include "nccl_rank_settings.h"

#include <cstdint>
#include <string>
#include <algorithm>
#include <vector>

namespace ringsim {

struct RankOptions {
  std::string algorithm = "ring";
  Collective collective = Collective::all_reduce;  // --collective, nccl-tests' name (collective_catalog.h)
  std::vector<std::uint64_t> sizes;  // bytes, multiples of 4 (float32 elements)
  int iterations = 5;
  int warmup = 1;
  std::string out_file;     // JSON report written by rank 0
  std::string events_file;  // per-step events of the last iteration of each size; empty: none
  std::vector<int> node_of_rank;  // --nodes (rank_nodes.h); empty when not given
  std::string progress_file;      // rank 0's progress (progress_meter.h); empty: none
  std::string count_messages_file;  // test hook: the run's network message count (engine_probes.h)
  // Under SMPI, buffers hold real values (and results are checked) while size x ranks stays within this.
  std::uint64_t check_limit_bytes = 128ULL << 20;
  // nccl_ring: --nccl-buffsize, and --nccl-channels and --nccl-protocols (one per size, or one for all).
  NcclRankSettings nccl;
  std::vector<int> nccl_channels;
  std::vector<NcclWire> nccl_protocols;
  std::vector<NcclAlgorithmKind> nccl_algorithms;  // nccl: --nccl-algorithms Ring|Tree,... (one per size, or one for all)
  std::vector<double> nccl_software_s;  // --nccl-software US,... (one per size, or one for all)
  // --nccl-rails LIST (rank_nodes.h's format): 1 + the NIC beside each rank's GPU, 0 for none. Stored
  // as the NIC index, -1 for none; empty: every rank beside its node's one NIC.
  std::vector<int> nccl_rail_of_rank;

  NcclRankSettings nccl_for(std::size_t size_index) const {
    NcclRankSettings settings = nccl;
    if (!nccl_channels.empty()) settings.channels = nccl_channels[std::min(size_index, nccl_channels.size() - 1)];
    if (!nccl_protocols.empty()) settings.protocol = nccl_protocols[std::min(size_index, nccl_protocols.size() - 1)];
    if (!nccl_algorithms.empty()) settings.algorithm = nccl_algorithms[std::min(size_index, nccl_algorithms.size() - 1)];
    if (!nccl_software_s.empty()) settings.software_s = nccl_software_s[std::min(size_index, nccl_software_s.size() - 1)];
    return settings;
  }
};

// Returns an error message, or an empty string on success. RANKS: the communicator's size.
std::string parse_rank_options(int argc, char** argv, int ranks, RankOptions& options);

inline constexpr const char* kRankUsage =
    "usage: ringsim-rank --sizes B1,B2,... --out FILE [--algorithm NAME] [--collective NAME] [--iterations K] [--warmup W]\n"
    "                    [--events FILE] [--check-limit BYTES] [--nodes LIST] [--progress FILE]\n"
    "                    [--count-messages FILE] [--nccl-channels C,...] [--nccl-buffsize BYTES]\n"
    "                    [--nccl-protocols LL|LL128|Simple,...] [--nccl-handshake INTRA_US,NET_US]\n"
    "                    [--nccl-ll128-hops INTRA_US,NET_US]\n"
    "                    [--nccl-block-rates LL_GBPS,LL128_GBPS] [--nccl-tree-hops LL_US,LL128_US]\n"
    "                    [--nccl-nvls EFFICIENCY,LATENCY_US]\n"
    "                    [--nccl-algorithms Ring|Tree,...] [--nccl-enqueue 1,1,524288,0,64] [--nccl-rails LIST]\n"
    "                    [--nccl-software US,...]\n"
    "  --nodes LIST: node index of every rank, e.g. 0x4,1x3,2 (needed by hierarchical)";

}  // namespace ringsim
