#include "nccl_p2p_schedule.h"

#include "rank_nodes.h"

#include <algorithm>
#include <bit>

namespace ringsim {
namespace {

constexpr int kP2pPerBatch = 8;  // NCCL_MAX_DEV_WORK_P2P_PER_BATCH

int pow2_up(int x) { return static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(1, x)))); }

// The low BITS bits of X in reverse order (channel.h reverseBits).
int reverse_bits(int x, int bits) {
  int reversed = 0;
  for (int b = 0; b < bits; ++b) reversed |= ((x >> b) & 1) << (bits - 1 - b);
  return reversed;
}

}  // namespace

NcclP2pSchedule::NcclP2pSchedule(int size, const std::vector<int>& node_of_rank, const NcclP2pRun& run)
    : size_(size), channels_(pow2_up(run.channels > 0 ? run.channels : 2)),
      per_peer_(std::min(channels_, pow2_up(run.channels_per_peer > 0 ? run.channels_per_peer : 2))), chunk_(run.chunk_bytes),
      node_(static_cast<std::size_t>(size)), group_(static_cast<std::size_t>(size)), local_(static_cast<std::size_t>(size)) {
  const std::vector<std::vector<int>> nodes = ranks_of_nodes(size, node_of_rank);
  nodes_ = static_cast<int>(nodes.size());
  const bool even = std::all_of(nodes.begin(), nodes.end(), [&](const std::vector<int>& ranks) { return ranks.size() == nodes[0].size(); });
  group_size_ = even ? static_cast<int>(nodes[0].size()) : 1;
  groups_ = size / group_size_;
  int position = 0;  // node-major
  for (std::size_t n = 0; n < nodes.size(); ++n)
    for (int rank : nodes[n]) {
      const auto r = static_cast<std::size_t>(rank);
      node_[r] = static_cast<int>(n);
      group_[r] = position / group_size_;
      local_[r] = position % group_size_;
      ++position;
    }
  // init.cc: groupDelta = (groupDelta + groupRound) & (pow2 - 1), deltas >= groups skipped.
  const int pow2 = pow2_up(groups_);
  delta_position_.assign(static_cast<std::size_t>(groups_), -1);
  unsigned delta = 0;
  int next = 0;
  for (int round = 1; round <= pow2; ++round) {
    if (static_cast<int>(delta) < groups_) delta_position_[delta] = next++;
    delta = (delta + static_cast<unsigned>(round)) & static_cast<unsigned>(pow2 - 1);
  }
  // enqueue.cc: one channel per operation where all fit, else fewer.
  min_per_op_ = per_peer_;
  while (min_per_op_ * size_ > channels_ && min_per_op_ > 1) min_per_op_ /= 2;
}

int NcclP2pSchedule::round_of(int sender, int receiver) const {
  const auto s = static_cast<std::size_t>(sender), r = static_cast<std::size_t>(receiver);
  const int group_delta = ((group_[r] - group_[s]) % groups_ + groups_) % groups_;
  const int local_delta = ((local_[r] - local_[s]) % group_size_ + group_size_) % group_size_;
  return delta_position_[static_cast<std::size_t>(group_delta)] * group_size_ + local_delta;
}

int NcclP2pSchedule::channel_of(int round, int part) const {
  int base = round;
  if (nodes_ > 1) {
    const int batches_per_group = (group_size_ + kP2pPerBatch - 1) / kP2pPerBatch;
    base = round / group_size_ * batches_per_group + round % group_size_ / kP2pPerBatch;
  }
  const int bits = std::countr_zero(static_cast<unsigned>(channels_));
  return (reverse_bits(base, bits) + part) & (channels_ - 1);
}

int NcclP2pSchedule::parts_for(std::uint64_t bytes) const {
  if (bytes == 0) return 1;
  const std::uint64_t min_part = nodes_ > 1 ? chunk_ / 2 : chunk_ / 8;
  const std::uint64_t max_part = nodes_ > 1 ? chunk_ : chunk_ * 32;
  int parts = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(min_per_op_), (bytes + min_part - 1) / min_part));
  std::uint64_t part = std::max(min_part, (bytes + static_cast<std::uint64_t>(parts) - 1) / static_cast<std::uint64_t>(parts));
  while (part > max_part && parts <= per_peer_ / 2) {
    parts *= 2;
    part = (bytes + static_cast<std::uint64_t>(parts) - 1) / static_cast<std::uint64_t>(parts);
  }
  return parts;
}

Piece NcclP2pSchedule::part_bounds(std::size_t count, int parts, int part) {
  constexpr std::size_t kAlign = (4u << 10) / sizeof(float);
  const std::size_t each = ((count + static_cast<std::size_t>(parts) - 1) / static_cast<std::size_t>(parts) + kAlign - 1) / kAlign * kAlign;
  const std::size_t begin = std::min(count, static_cast<std::size_t>(part) * each);
  return {begin, std::min(count, begin + each) - begin};
}

std::uint64_t NcclP2pSchedule::chunk_for(std::uint64_t bytes, int a, int b) const {
  if (!across_nodes(a, b)) return chunk_;
  // enqueue.cc: "Tune chunk size for the network".
  if (bytes < chunk_) return chunk_ / 4;
  if (bytes < 8 * chunk_) return chunk_ / 2;
  return chunk_;
}

}  // namespace ringsim
