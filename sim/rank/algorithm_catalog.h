// Names and one-line summaries of the allreduce algorithms, shared by the `ringsim` command (which
// validates scenarios, prints --help and computes closed forms) and the rank program's registry
// (allreduce_registry.cpp). Variants with a parameter are separate names, so a scenario names one
// exactly: parameter_server (1 server), parameter_server_2, _4, _all (every rank serves a shard);
// ring_pipelined (1 MiB segments), ring_pipelined_64KiB.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ringsim {

// parameter_server_all: as many servers as ranks (the algorithm clamps the count to N).
inline constexpr int kServerOnEveryRank = 1 << 30;

struct AlgorithmInfo {
  std::string_view name;
  std::string_view summary;
  int servers = 0;                  // parameter_server variants: K, the number of servers
  std::uint64_t segment_bytes = 0;  // ring_pipelined variants: the segment size
  // The placements it runs on: any; one node only (nccl_nvls: the NVSwitch is the node's); or as many
  // ranks on every node (nccl_nvls_tree: each node's heads pair up across nodes).
  enum class Placements { any, one_node, same_per_node };
  Placements placements = Placements::any;
};

inline constexpr std::array kAlgorithmCatalog{
    AlgorithmInfo{.name = "ring",
                  .summary = "baidu-allreduce ring: N-1 scatter-reduce steps (Irecv+Send+Wait+reduce), N-1 allgather steps"},
    AlgorithmInfo{.name = "ring_pipelined",
                  .summary = "the ring with chunks cut into 1 MiB segments, non-blocking: a segment moves on as soon as it is added",
                  .segment_bytes = 1 << 20},
    AlgorithmInfo{.name = "ring_pipelined_64KiB", .summary = "ring_pipelined with 64 KiB segments", .segment_bytes = 64 << 10},
    AlgorithmInfo{.name = "ring_bidir", .summary = "two rings in opposite directions, half the buffer each, in step together"},
    AlgorithmInfo{.name = "parameter_server",
                  .summary = "one server (rank 0): everyone sends it the buffer, it adds them and sends the sum back",
                  .servers = 1},
    AlgorithmInfo{.name = "parameter_server_2", .summary = "parameter server sharded over 2 servers (ranks 0-1)", .servers = 2},
    AlgorithmInfo{.name = "parameter_server_4", .summary = "parameter server sharded over 4 servers (ranks 0-3)", .servers = 4},
    AlgorithmInfo{.name = "parameter_server_all",
                  .summary = "parameter server sharded over every rank (a direct reduce-scatter + allgather)",
                  .servers = kServerOnEveryRank},
    AlgorithmInfo{.name = "reduce_bcast", .summary = "binomial-tree reduce to rank 0, then binomial-tree broadcast"},
    AlgorithmInfo{.name = "recursive_doubling",
                  .summary = "lg N rounds of swapping the whole buffer with a partner; extra ranks folded in first"},
    AlgorithmInfo{.name = "rabenseifner",
                  .summary = "reduce-scatter by recursive halving, allgather by recursive doubling (Thakur-Rabenseifner-Gropp)"},
    AlgorithmInfo{.name = "hierarchical",
                  .summary = "Horovod's: reduce to a leader inside each node, ring among node leaders, broadcast inside nodes"},
    AlgorithmInfo{.name = "nccl_ring",
                  .summary = "NCCL's ring: C channels, node-contiguous ring order, chunks cut in slices with up to 8 steps in flight, "
                             "protocol by size (model key nccl)"},
    AlgorithmInfo{.name = "nccl_tree",
                  .summary = "NCCL's double binary tree: a chain in each node, two complementary binary trees across nodes, "
                             "reduce up then broadcast down in chunks, half the channels on each tree"},
    AlgorithmInfo{.name = "nccl_nvls",
                  .summary = "NCCL's NVLS (NVLink SHARP) on one NVSwitch node of Hopper or later GPUs: the switch adds each shard "
                             "and multicasts the sum, so each GPU's NVLink carries (1 + 1/N) S each way",
                  .placements = AlgorithmInfo::Placements::one_node},
    AlgorithmInfo{.name = "nccl_nvls_tree",
                  .summary = "NCCL's NVLS tree across NVSwitch nodes: NVLS reduces each shard onto its head GPU, the heads add their "
                             "nodes' sums up a double binary tree over the nodes and bring the total down, NVLS multicasts it",
                  .placements = AlgorithmInfo::Placements::same_per_node},
    AlgorithmInfo{.name = "nccl",
                  .summary = "what NCCL would run: per size the algorithm (ring, tree, NVLS or NVLS tree on Hopper NVSwitch nodes) and protocol its tuning model picks"},
    AlgorithmInfo{.name = "mpi", .summary = "the MPI library's own MPI_Allreduce (SMPI: --cfg=smpi/allreduce); traffic unknown"},
};

// nullptr for an unknown name.
constexpr const AlgorithmInfo* find_algorithm_info(std::string_view name) {
  for (const AlgorithmInfo& info : kAlgorithmCatalog)
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace ringsim
