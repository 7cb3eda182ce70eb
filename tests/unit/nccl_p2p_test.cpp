// NCCL's point-to-point schedule (sim/rank/nccl_p2p_schedule.h) and its setup per release
// (sim/nccl/tuning/nccl_p2p_rules.h), against values worked by hand from NCCL's sources.
#include "../../sim/nccl/tuning/nccl_p2p_rules.h"
#include "../../sim/rank/nccl_p2p_schedule.h"

#include <doctest/doctest.h>

#include <set>
#include <utility>

using namespace ringsim;

namespace {

// H100 ranks on NODES nodes of one 400 Gb/s NIC per GPU (50 GB/s), 18 NVLink links, COMM_CHANNELS channels.
NcclCase h100_case(int nodes, int per_node, int comm_channels, NcclVersion version) {
  NcclCase c;
  c.set_version(version);
  c.compute_capability = 90;
  c.ranks = nodes * per_node;
  c.nodes = nodes;
  c.channels = comm_channels;
  c.channel_bandwidth_Bps = 48e9;
  c.nvlink = true;
  return c;
}

NcclTopologyFacts h100_facts() {
  NcclTopologyFacts facts;
  facts.nic_bandwidth_Bps = 50e9;
  facts.nvlink = true;
  facts.nvlink_links = 18;
  return facts;
}

std::vector<int> block_nodes(int nodes, int per_node) {
  std::vector<int> node_of_rank;
  for (int n = 0; n < nodes; ++n)
    for (int g = 0; g < per_node; ++g) node_of_rank.push_back(n);
  return node_of_rank;
}

}  // namespace

TEST_CASE("NCCL 2.29's p2p channels on 10 H100 nodes: 4 per network peer by the NIC's rate, halved until every peer fits one batch") {
  const NcclVersion v229{2, 29};
  // 1 GPU per node: 2 channels (1 search channel doubled), doubled again below 16 on Hopper (2.25 on): 4.
  // Per peer: ceil(50 / 14) = 4; x ceil(10 / 8) = 2 batches: 8 > 4, so 2 (2 x 2 = 4).
  const NcclP2pRun one = nccl_p2p_run(h100_case(10, 1, 2, v229), h100_facts(), 1, 4u << 20);
  CHECK(one.channels == 4);
  CHECK(one.channels_per_peer == 2);
  CHECK(one.chunk_bytes == 128u << 10);
  CHECK(one.block_Bps == 14e9);
  // 8 GPUs per node: 16 channels, not doubled; NVLink peers ask 2 x 18, network peers 4; x ceil(80 / 8) = 10: 1.
  const NcclP2pRun eight = nccl_p2p_run(h100_case(10, 8, 16, v229), h100_facts(), 8, 4u << 20);
  CHECK(eight.channels == 16);
  CHECK(eight.channels_per_peer == 1);
  // 2 and 4 GPUs per node: 8 and 16 channels; 4 x 3 = 12 > 8 and 4 x 5 = 20 > 16, so 2.
  CHECK(nccl_p2p_run(h100_case(10, 2, 4, v229), h100_facts(), 2, 4u << 20).channels_per_peer == 2);
  CHECK(nccl_p2p_run(h100_case(10, 4, 8, v229), h100_facts(), 4, 4u << 20).channels == 16);
  CHECK(nccl_p2p_run(h100_case(10, 4, 8, v229), h100_facts(), 4, 4u << 20).channels_per_peer == 2);
}

TEST_CASE("Earlier releases: 2 channels per network peer, no Hopper doubling before 2.25, and one NVLink node takes 512 KiB chunks") {
  const NcclP2pRun v219 = nccl_p2p_run(h100_case(10, 8, 16, {2, 19}), h100_facts(), 8, 4u << 20);
  CHECK(v219.channels == 16);
  CHECK(v219.channels_per_peer == 2);
  CHECK(nccl_p2p_run(h100_case(10, 1, 2, {2, 23}), h100_facts(), 1, 4u << 20).channels == 2);
  CHECK(nccl_p2p_run(h100_case(10, 1, 2, {2, 25}), h100_facts(), 1, 4u << 20).channels == 4);
  // 2.21-2.28: 2 halved while 2 x ranks > 4 x channels: 2 x 80 > 4 x 16, so 1.
  CHECK(nccl_p2p_run(h100_case(10, 8, 16, {2, 23}), h100_facts(), 8, 4u << 20).channels_per_peer == 1);
  NcclCase single = h100_case(1, 8, 32, {2, 29});
  const NcclP2pRun nvlink = nccl_p2p_run(single, h100_facts(), 8, 4u << 20);
  CHECK(nvlink.chunk_bytes == 512u << 10);
  CHECK(nvlink.channels_per_peer == 32);  // 2 x 18 = 36, rounded up to 64, at most the 32 channels
  CHECK(nccl_p2p_run(single, h100_facts(), 8, 1u << 20).chunk_bytes == 128u << 10);  // at most NCCL_BUFFSIZE / 8
}

TEST_CASE("The p2p schedule: every peer once, the sender's round is the receiver's, 16 ranks' node deltas in the quadratic order") {
  NcclP2pRun run{16, 2, 128u << 10, 0};
  const std::vector<int> nodes = block_nodes(4, 4);
  const NcclP2pSchedule schedule(16, nodes, run);
  for (int r = 0; r < 16; ++r) {
    std::set<int> rounds;
    for (int p = 0; p < 16; ++p) rounds.insert(schedule.round_of(r, p));
    CHECK(rounds.size() == 16);  // a permutation of the rounds
    CHECK(schedule.round_of(r, r) == 0);
  }
  // 4 groups: deltas 0, 1, 3, 2 (x(x+1)/2 mod 4: 0, 1, 3, 6 = 2); within each, local deltas 0..3.
  CHECK(schedule.round_of(0, 1) == 1);   // group delta 0, local delta 1
  CHECK(schedule.round_of(0, 4) == 4);   // group delta 1 at position 1
  CHECK(schedule.round_of(0, 12) == 8);  // group delta 3 at position 2
  CHECK(schedule.round_of(0, 8) == 12);  // group delta 2 at position 3
  CHECK(schedule.round_of(5, 10) == 5);   // group delta 1 at position 1, local delta 1
  CHECK(schedule.round_of(5, 2) == 9);    // group delta 3 at position 2, local delta 1
  // Across nodes the base of round k is (k / 4) x ceil(4 / 8) + (k % 4) / 8, bit-reversed over 16 channels.
  CHECK(schedule.channel_of(4, 0) == 8);   // base 1 -> 0b1000
  CHECK(schedule.channel_of(12, 1) == 13);  // base 3 -> 0b1100, + 1
  CHECK(schedule.channel_of(1, 0) == 0);   // base 0
}

TEST_CASE("A p2p operation's parts and chunks as enqueue.cc sizes them") {
  // 80 ranks, 16 channels, 1 per peer: min part 64 KiB, max 128 KiB; 1 part whatever the size.
  const NcclP2pSchedule eighty(80, block_nodes(10, 8), {16, 1, 128u << 10, 0});
  CHECK(eighty.parts_for(1u << 30) == 1);
  // 10 ranks, 4 channels, 2 per peer: one per operation (2 x 10 > 4), doubled past 128 KiB a part.
  const NcclP2pSchedule ten(10, block_nodes(10, 1), {4, 2, 128u << 10, 0});
  CHECK(ten.parts_for(100u << 10) == 1);
  CHECK(ten.parts_for(200u << 10) == 2);
  CHECK(ten.parts_for(1u << 30) == 2);
  // The network's chunk: a quarter below one chunk, half below 8.
  CHECK(ten.chunk_for(64u << 10, 0, 1) == 32u << 10);
  CHECK(ten.chunk_for(512u << 10, 0, 1) == 64u << 10);
  CHECK(ten.chunk_for(1u << 20, 0, 1) == 128u << 10);
  // Parts of ceil(bytes / parts) rounded up to 4 KiB (1024 floats).
  const Piece first = NcclP2pSchedule::part_bounds(3000, 2, 0), second = NcclP2pSchedule::part_bounds(3000, 2, 1);
  CHECK(first.start == 0);
  CHECK(first.length == 2048);
  CHECK(second.start == 2048);
  CHECK(second.length == 952);
}
