// The MPI tags of every algorithm, in one enumeration so that no two algorithms (or two phases of
// one) share a tag by accident: hierarchical runs the ring and the trees inside one call, and a
// message of one phase must never match a receive of another.
#pragma once

namespace ringsim {

// Plain enum: the values are ints, as MPI's tag arguments are. Keep them below 2^21 - 1,
// the S4U engine's own barrier tag (sim/s4u_mpi/collectives.cpp).
enum MessageTag : int {
  kRingScatterTag = 0,          // ring_allreduce: scatter-reduce steps
  kRingGatherTag = 1,           // ring_allreduce: allgather steps
  kTreeReduceTag = 20,          // binomial tree: partial sums towards the root
  kTreeBroadcastTag = 21,       // binomial tree: the result away from the root
  kDoublingFoldTag = 40,        // recursive doubling: extra ranks fold into the power of two
  kDoublingExchangeTag = 41,    // recursive doubling: pairwise exchange
  kDoublingUnfoldTag = 42,      // recursive doubling: the result back to the extra ranks
  kRabenseifnerFoldTag = 50,      // rabenseifner: fold, the halves the pair swaps
  kRabenseifnerFoldHalfTag = 51,  // rabenseifner: fold, the half that then moves one way
  kRabenseifnerHalvingTag = 52,   // rabenseifner: recursive-halving reduce-scatter
  kRabenseifnerDoublingTag = 53,  // rabenseifner: recursive-doubling allgather
  kRabenseifnerUnfoldTag = 54,    // rabenseifner: the result back to the extra ranks
  kBidirScatterTag = 60,        // ring_bidir: scatter-reduce, + 0 right-going ring, + 1 left-going
  kBidirGatherTag = 62,         // ring_bidir: allgather, + 0 right-going ring, + 1 left-going
  kPipelinedSegmentTag = 70,    // ring_pipelined: every segment
  kPushTag = 80,                // parameter_server: shards to their server
  kPullTag = 81,                // parameter_server: summed shards back
  kNcclChannelTag = 90,         // nccl_ring: + channel (up to 64), so each channel matches only its own
  kNcclTreeChannelTag = 160,    // nccl_tree: + channel (up to 64), likewise
  kNvlsReduceTag = 230,         // nccl_nvls: copies of a shard to its owner (the switch's reduction)
  kNvlsGatherTag = 231,         // nccl_nvls: the owner's sum to every GPU (the switch's multicast)
  kNvlsTreeUpTag = 232,         // nccl_nvls_tree: a node's sum of a shard to its parent node's head, + tree (0, 1)
  kNvlsTreeDownTag = 234,       // nccl_nvls_tree: the shard's total to a child node's head, + tree: the two trees
                                // progress apart, and two nodes may be parent and child in both
  kNvlsTreeGatherTag = 236,     // nccl_nvls_tree: the total to the node's GPUs, + tree: each tree's steps come down in order
  kNvlsTreeScatterTag = 238,    // nccl_nvls_tree: copies of a shard to its head, + tree: each tree's steps start in order
  kCollectiveRingTag = 300,     // ring all_gather and reduce_scatter: every step
  kChainTag = 301,              // chain broadcast and reduce: every segment
  kAlltoallTag = 302,           // pairwise and linear alltoall: every block
  kRingShiftTag = 303,          // sendrecv's ring shift
  kNcclP2pTag = 400,            // nccl_p2p alltoall and sendrecv: + channel (up to 64), so each channel matches only its own
  kPatGatherTag = 500,          // nccl_pat all-gather: + channel (up to 64): the channels progress apart
  kPatReduceTag = 600,          // nccl_pat reduce-scatter: + channel (up to 64), likewise
};

}  // namespace ringsim
