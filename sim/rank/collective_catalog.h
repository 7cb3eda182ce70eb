// The collectives beyond allreduce that the rank program runs, by nccl-tests' names without `_perf`,
// and which algorithm names a scenario may give each (docs/collectives.md). MPI-free and constexpr,
// shared by the launcher (scenario checks, closed forms, busbw) and the rank program's registry
// (collective_registry.cpp), as algorithm_catalog.h is for allreduce.
//
// Sizes follow nccl-tests: a size is max(send, receive) bytes of one rank, so all_gather's is its whole
// output (N pieces), reduce_scatter's its whole input, alltoall's its send buffer (N blocks), and the
// others' the one buffer. algbw = size / time; busbw = algbw x busbw_factor (nccl-tests' *GetBw).
#pragma once

#include "algorithm_catalog.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ringsim {

enum class Collective { all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv };

inline constexpr std::array<std::string_view, 7> kCollectiveNames{"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                                                  "reduce",     "alltoall",   "sendrecv"};

constexpr std::string_view collective_name(Collective collective) {
  return kCollectiveNames[static_cast<std::size_t>(collective)];
}

constexpr std::optional<Collective> find_collective(std::string_view name) {
  for (std::size_t i = 0; i < kCollectiveNames.size(); ++i)
    if (kCollectiveNames[i] == name) return static_cast<Collective>(i);
  return std::nullopt;
}

// nccl-tests' busbw / algbw: what each rank's link must carry per byte of the size on a
// bandwidth-optimal algorithm (all_reduce.cu 2(n-1)/n, all_gather.cu and reduce_scatter.cu (n-1)/n,
// alltoall.cu (n-1)/n, broadcast.cu, reduce.cu and sendrecv.cu 1).
constexpr double busbw_factor(Collective collective, int ranks) {
  const double n = ranks;
  switch (collective) {
    case Collective::all_reduce: return 2 * (n - 1) / n;
    case Collective::all_gather:
    case Collective::reduce_scatter:
    case Collective::alltoall: return (n - 1) / n;
    case Collective::broadcast:
    case Collective::reduce:
    case Collective::sendrecv: return 1;
  }
  return 1;
}

// How an algorithm of a collective other than all_reduce moves data; each has its closed form
// (sim/analysis/collective_costs.h) and its code (sim/rank/collective_registry.cpp).
enum class CollectiveMethod {
  ring_all_gather,      // N-1 ring steps of one piece (the allreduce ring's allgather half)
  ring_reduce_scatter,  // N-1 ring steps of one piece, each added (its scatter-reduce half)
  binomial_broadcast,   // ceil(lg N) rounds of the whole buffer from rank 0
  binomial_reduce,      // ceil(lg N) rounds of the whole buffer to rank 0
  chain_broadcast,      // rank 0 -> 1 -> ... -> N-1, the buffer cut into segments that follow each other
  chain_reduce,         // N-1 -> ... -> 0, each rank adds a segment before passing it on
  pairwise_alltoall,    // N-1 steps: at step k send to rank+k, receive from rank-k (MPI_Sendrecv)
  linear_alltoall,      // every Irecv and Isend posted at once, then wait for all
  ring_shift,           // sendrecv: each rank sends to rank+1 and receives from rank-1
  nccl_ring_all_gather,      // NCCL's ring: the copying half of nccl_ring's allreduce, channels and slices alike
  nccl_ring_reduce_scatter,  // NCCL's ring: the adding half of nccl_ring's allreduce
  nccl_p2p_alltoall,         // NCCL's point-to-point schedule: a send and a receive with every rank, in rounds over channels
  nccl_p2p_sendrecv,         // NCCL's point-to-point schedule: a send to rank+1, a receive from rank-1
  nccl_ring_broadcast,       // NCCL's ring opened at the root: a chain from rank 0 along each channel's ring
  nccl_ring_reduce,          // NCCL's ring opened at the root: a chain to rank 0, each hop adding
  nccl_nvls_all_gather,      // NCCL's NVLS on one node: each rank's block multicast through the switch
  nccl_nvls_reduce_scatter,  // NCCL's NVLS on one node: each rank's block summed by the switch
  nccl_all_gather,           // what NCCL would run at each size: its ring, NVLS or PAT
  nccl_reduce_scatter,       // what NCCL would run at each size: its ring, NVLS or PAT
  nccl_pat_all_gather,       // NCCL's PAT: every block down a binomial tree over peers at +-2^d
  nccl_pat_reduce_scatter,   // NCCL's PAT: the same trees backwards, adding on the way
};

// NCCL's rings (nccl_ring_allreduce.cpp) and point-to-point schedule (nccl_p2p_collectives.cpp): no
// closed form prices them, and both lay their channels by node, so the rank program needs --nodes.
constexpr bool is_nccl_method(CollectiveMethod method) {
  return method == CollectiveMethod::nccl_ring_all_gather || method == CollectiveMethod::nccl_ring_reduce_scatter ||
         method == CollectiveMethod::nccl_p2p_alltoall || method == CollectiveMethod::nccl_p2p_sendrecv ||
         method == CollectiveMethod::nccl_ring_broadcast || method == CollectiveMethod::nccl_ring_reduce ||
         method == CollectiveMethod::nccl_nvls_all_gather || method == CollectiveMethod::nccl_nvls_reduce_scatter ||
         method == CollectiveMethod::nccl_all_gather || method == CollectiveMethod::nccl_reduce_scatter ||
         method == CollectiveMethod::nccl_pat_all_gather || method == CollectiveMethod::nccl_pat_reduce_scatter;
}

// Pipelined chain's segment: as ring_pipelined's (algorithm_catalog.h).
inline constexpr std::uint64_t kChainSegmentBytes = 1 << 20;

// One scenario algorithm name under one collective.
struct CollectiveAlgorithmInfo {
  Collective collective;
  std::string_view name;
  CollectiveMethod method;
  std::string_view summary;
};

// `ring` names the ring's version of each collective where it has one (the chain, a ring cut open,
// under broadcast and reduce, as NCCL's ring broadcast is); all_reduce's algorithms are the catalog's.
inline constexpr std::array kCollectiveAlgorithms{
    CollectiveAlgorithmInfo{Collective::all_gather, "ring", CollectiveMethod::ring_all_gather,
                            "ring all-gather: N-1 steps, each rank passes on the piece it received last"},
    CollectiveAlgorithmInfo{Collective::reduce_scatter, "ring", CollectiveMethod::ring_reduce_scatter,
                            "ring reduce-scatter: N-1 steps, each rank adds the piece it receives and passes it on"},
    CollectiveAlgorithmInfo{Collective::broadcast, "binomial", CollectiveMethod::binomial_broadcast,
                            "binomial tree from rank 0: ceil(lg N) rounds of the whole buffer"},
    CollectiveAlgorithmInfo{Collective::broadcast, "chain", CollectiveMethod::chain_broadcast,
                            "pipelined chain 0 -> 1 -> ... -> N-1 in 1 MiB segments"},
    CollectiveAlgorithmInfo{Collective::broadcast, "ring", CollectiveMethod::chain_broadcast, "the chain (a ring cut open)"},
    CollectiveAlgorithmInfo{Collective::reduce, "binomial", CollectiveMethod::binomial_reduce,
                            "binomial tree to rank 0: ceil(lg N) rounds of the whole buffer"},
    CollectiveAlgorithmInfo{Collective::reduce, "chain", CollectiveMethod::chain_reduce,
                            "pipelined chain N-1 -> ... -> 0 in 1 MiB segments, each added on the way"},
    CollectiveAlgorithmInfo{Collective::reduce, "ring", CollectiveMethod::chain_reduce, "the chain (a ring cut open)"},
    CollectiveAlgorithmInfo{Collective::alltoall, "pairwise", CollectiveMethod::pairwise_alltoall,
                            "pairwise exchange: N-1 steps, at step k send to rank+k and receive from rank-k"},
    CollectiveAlgorithmInfo{Collective::alltoall, "linear", CollectiveMethod::linear_alltoall,
                            "every Irecv and Isend posted at once, then MPI_Waitall"},
    CollectiveAlgorithmInfo{Collective::all_gather, "nccl_ring", CollectiveMethod::nccl_ring_all_gather,
                            "NCCL's ring all-gather: nccl_ring's channels, slices and steps in flight, N-1 steps of every rank's block"},
    CollectiveAlgorithmInfo{Collective::reduce_scatter, "nccl_ring", CollectiveMethod::nccl_ring_reduce_scatter,
                            "NCCL's ring reduce-scatter: nccl_ring's channels, slices and steps in flight, N-1 steps, each added"},
    CollectiveAlgorithmInfo{Collective::all_gather, "nccl", CollectiveMethod::nccl_all_gather,
                            "what NCCL would run: its ring, NVLS (one node) or PAT (one GPU per node), by NCCL's model"},
    CollectiveAlgorithmInfo{Collective::reduce_scatter, "nccl", CollectiveMethod::nccl_reduce_scatter,
                            "what NCCL would run: its ring, NVLS (one node) or PAT (one GPU per node), by NCCL's model"},
    CollectiveAlgorithmInfo{Collective::all_gather, "nccl_pat", CollectiveMethod::nccl_pat_all_gather,
                            "NCCL's PAT all-gather: each block down a binomial tree over peers 2^d away, per channel and chunk"},
    CollectiveAlgorithmInfo{Collective::reduce_scatter, "nccl_pat", CollectiveMethod::nccl_pat_reduce_scatter,
                            "NCCL's PAT reduce-scatter: the all-gather's trees backwards, partial sums added on the way"},
    CollectiveAlgorithmInfo{Collective::all_gather, "nccl_nvls", CollectiveMethod::nccl_nvls_all_gather,
                            "NCCL's NVLS all-gather on one NVSwitch node: each rank's block multicast by the switch"},
    CollectiveAlgorithmInfo{Collective::reduce_scatter, "nccl_nvls", CollectiveMethod::nccl_nvls_reduce_scatter,
                            "NCCL's NVLS reduce-scatter on one NVSwitch node: each rank's block summed by the switch"},
    CollectiveAlgorithmInfo{Collective::broadcast, "nccl_ring", CollectiveMethod::nccl_ring_broadcast,
                            "NCCL's ring broadcast: each channel's ring opened at rank 0, one-step slices, 8 in flight"},
    CollectiveAlgorithmInfo{Collective::reduce, "nccl_ring", CollectiveMethod::nccl_ring_reduce,
                            "NCCL's ring reduce: each channel's ring opened at rank 0, one-step slices added at each hop"},
    CollectiveAlgorithmInfo{Collective::broadcast, "nccl", CollectiveMethod::nccl_ring_broadcast,
                            "what NCCL would run: its ring (the only algorithm NCCL has for broadcast), protocol by NCCL's model"},
    CollectiveAlgorithmInfo{Collective::reduce, "nccl", CollectiveMethod::nccl_ring_reduce,
                            "what NCCL would run: its ring (the only algorithm NCCL has for reduce), protocol by NCCL's model"},
    CollectiveAlgorithmInfo{Collective::sendrecv, "ring", CollectiveMethod::ring_shift,
                            "ring shift: each rank sends to rank+1 and receives from rank-1"},
    CollectiveAlgorithmInfo{Collective::alltoall, "nccl_p2p", CollectiveMethod::nccl_p2p_alltoall,
                            "NCCL's point-to-point schedule: every peer's block in parts over its channels, 8 chunks in flight each"},
    CollectiveAlgorithmInfo{Collective::alltoall, "nccl", CollectiveMethod::nccl_p2p_alltoall,
                            "what NCCL would run: its point-to-point schedule (nccl_p2p)"},
    CollectiveAlgorithmInfo{Collective::sendrecv, "nccl_p2p", CollectiveMethod::nccl_p2p_sendrecv,
                            "NCCL's point-to-point schedule: the send to rank+1 and the receive from rank-1 in parts over their channels"},
    CollectiveAlgorithmInfo{Collective::sendrecv, "nccl", CollectiveMethod::nccl_p2p_sendrecv,
                            "what NCCL would run: its point-to-point schedule (nccl_p2p)"},
};

// The algorithm names that exist only for collectives other than all_reduce (`ring` is the catalog's),
// as the launcher's registry lists them after the catalog (sim/model/algorithm_registry.h).
inline constexpr std::array kCollectiveOnlyAlgorithms{
    AlgorithmInfo{.name = "binomial", .summary = "broadcast, reduce: binomial tree from or to rank 0"},
    AlgorithmInfo{.name = "chain", .summary = "broadcast, reduce: pipelined chain in 1 MiB segments"},
    AlgorithmInfo{.name = "pairwise", .summary = "alltoall: pairwise exchange, N-1 steps of MPI_Sendrecv"},
    AlgorithmInfo{.name = "linear", .summary = "alltoall: every Irecv and Isend posted at once, then MPI_Waitall"},
    AlgorithmInfo{.name = "nccl_p2p", .summary = "alltoall, sendrecv: NCCL's point-to-point schedule over its channels"},
    AlgorithmInfo{.name = "nccl_pat", .summary = "all-gather, reduce-scatter: NCCL's PAT (binomial trees over peers 2^d away)"},
};

// nullptr when COLLECTIVE (not all_reduce) has no algorithm NAME.
constexpr const CollectiveAlgorithmInfo* find_collective_algorithm_info(Collective collective, std::string_view name) {
  for (const CollectiveAlgorithmInfo& info : kCollectiveAlgorithms)
    if (info.collective == collective && info.name == name) return &info;
  return nullptr;
}

// Whether NAME is an algorithm of some collective other than all_reduce.
constexpr bool names_collective_algorithm(std::string_view name) {
  return std::any_of(kCollectiveAlgorithms.begin(), kCollectiveAlgorithms.end(),
                     [name](const CollectiveAlgorithmInfo& info) { return info.name == name; });
}

}  // namespace ringsim
