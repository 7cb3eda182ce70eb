// The ring's time in closed form from its embedding: each of the 2(N-1) steps moves a chunk of S/N
// bytes along every ring edge at once, so a step lasts as long as the slowest ring edge,
//     step = max over ring edges e of ( L_e + (S/N) * max over links l of e of c_l / B_l )
// with c_l the ring edges sharing link direction l (1 on a non-blocking switch); the N-1 reductions
// add (S/N)/4 flops each. This is what SimGrid's max-min sharing gives on the ideal model.
#pragma once

#include "topology_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ringsim {

struct Bottleneck {
  LinkUse use;
  int ring_edges = 0;
  double bandwidth_Bps = 0;
};

// The contended link direction with the largest ring edges / bandwidth.
Bottleneck find_bottleneck(const RingEmbedding& ring);

// The bottleneck in words, naming the mechanism behind it: e.g. "the network stack of rank 7
// (node2-gpu0): its send and its receive compete (2 ring edges at 10 Gbit/s)". HOSTS: host of each rank.
std::string describe_bottleneck(const RingEmbedding& ring, const Bottleneck& bottleneck, const std::vector<std::string>& hosts);

// The mechanism the bottleneck stands for, in a few words: "per-process send/receive serialization",
// "NIC sharing", "cross traffic", "an oversubscribed uplink", "link bandwidth".
std::string bottleneck_mechanism(const RingEmbedding& ring, const Bottleneck& bottleneck, const std::vector<std::string>& hosts);

double predicted_ring_time(const RingEmbedding& ring, std::uint64_t bytes, double gpu_speed_flops);

}  // namespace ringsim
