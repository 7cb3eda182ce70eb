// NCCL's NVLS tree allreduce over several NVSwitch nodes (NCCL 2.18 on, Hopper and later GPUs;
// device/all_reduce.h NCCL_ALGO_NVLS_TREE, connect.cc connectNvls). Inside each node NVLS reduces
// every shard onto its head GPU (one head per GPU, as nccl_nvls); the heads of a shard, one per node,
// add their nodes' sums up NCCL's double binary tree over the nodes (ncclGetDtree: channel c runs
// tree c % 2) and bring the total back down, each through the NIC beside it; each head then stores
// the total once for the NVSwitch to multicast to its node's GPUs.
//
// As plain MPI: per step of G shards of NCCL's nvlsChunkSize (G ranks per node), a direct
// reduce-scatter inside the node, the shard's tree across nodes, and a direct allgather inside the
// node; messages inside the node are charged as nccl_nvls charges them (engine_probes.h scale_sends),
// those between nodes as sent. Steps alternate between the two trees, as NCCL's channels do. A rank
// brings a step down the tree a few steps after it sent it up, as NCCL's reduce and broadcast warps
// run side by side, so no step's round trip stalls the next.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "engine_probes.h"
#include "message_tags.h"
#include "nvls_steps.h"
#include "nccl_trees.h"
#include "rank_nodes.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <vector>

namespace ringsim {
namespace {

// Where a rank sits: its node's ranks in rank order, its index among them, and the rank of the same
// index on every node (the heads of its shard), nodes in order of their first rank.
struct NvlsLayout {
  std::vector<int> local;  // ranks of my node
  int index = 0;           // mine among them
  std::vector<int> heads;  // per node, the rank of my index
  int node = 0;            // my node's position
  bool uniform = true;     // every node holds as many ranks
};

NvlsLayout layout_of(const AllreduceContext& ctx) {
  NvlsLayout layout;
  const std::vector<std::vector<int>> members = ranks_of_nodes(ctx.size, ctx.node_of_rank);
  for (std::size_t k = 0; k < members.size(); ++k) {
    layout.uniform = layout.uniform && members[k].size() == members[0].size();
    const auto mine = std::find(members[k].begin(), members[k].end(), ctx.rank);
    if (mine == members[k].end()) continue;
    layout.local = members[k];
    layout.index = static_cast<int>(mine - members[k].begin());
    layout.node = static_cast<int>(k);
  }
  for (const std::vector<int>& node : members)
    layout.heads.push_back(static_cast<std::size_t>(layout.index) < node.size() ? node[static_cast<std::size_t>(layout.index)] : -1);
  return layout;
}

// One call: the node's layout, the two trees, the steps in flight and what each phase has reached.
class NvlsTreeRun {
 public:
  NvlsTreeRun(float* output, std::size_t count, AllreduceContext& ctx, const NvlsLayout& layout)
      : out_(output), count_(count), ctx_(ctx), layout_(layout), g_(static_cast<int>(layout.local.size())),
        step_floats_(kNvlsChunkFloats * static_cast<std::size_t>(g_)), steps_((count + step_floats_ - 1) / step_floats_),
        in_flight_(std::min<std::size_t>(kNvlsTreeStepsInFlight, steps_)), window_(in_flight_), down_done_(steps_, 0) {
    intra_scale_ = nvls_wire_per_byte(g_, ctx.nccl);
    for (int t = 0; t < 2; ++t) trees_[t] = nccl_double_tree(static_cast<int>(layout.heads.size()), layout.node, t);
    // Received copies and partial sums land in slots; with SMPI-shared buffers every slot is the scratch.
    const std::size_t shard_floats = std::min(kNvlsChunkFloats, (count + g_ - 1) / static_cast<std::size_t>(g_));
    slot_base_ = ctx.scratch;
    if (ctx.kernels.hold_values() || shard_floats > count) {
      slot_memory_.resize(in_flight_ * slots_per_step() * shard_floats);
      slot_base_ = slot_memory_.data();
      slot_stride_ = shard_floats;
    }
  }

  // The reduction up and the broadcast down progress independently, and so do the two trees, as
  // NCCL's reduce and broadcast warps of its channels do: each takes its next step as soon as its
  // messages are in; when none can, the rank waits for the first message one of them needs. Steps
  // start in order, each once the step in_flight before it has come down (its slots are free).
  void run() {
    for (std::size_t s = 0; s < in_flight_; ++s) start(s);
    started_ = in_flight_;
    while (down_[0] < steps_ || down_[1] < steps_) {
      std::vector<MPI_Request*> needed;
      bool moved = false;
      for (int t = 0; t < 2; ++t) moved = advance_tree(t, needed) || moved;
      // Sends and the allgather's receives need nothing more until the end: released as they complete.
      while (!sending_.empty() && first_pending(sending_.front().data(), sending_.front().size()) == nullptr) sending_.pop_front();
      while (started_ < steps_ && down_done_[started_ - in_flight_] != 0) start(started_++), moved = true;
      if (!moved) wait_for_first(needed);
    }
    for (std::vector<MPI_Request>& sent : sending_) MPI_Waitall(static_cast<int>(sent.size()), sent.data(), MPI_STATUSES_IGNORE);
    scale_sends(1.0);
  }

 private:
  // One step: G shards, the slots its copies and sums land in, the requests of each phase.
  struct Step {
    std::vector<Piece> shards;
    float* slots = nullptr;  // G - 1 copies of my shard, up to 2 children's sums, the total
    std::vector<MPI_Request> scatter, from_children;
    MPI_Request to_parent = MPI_REQUEST_NULL, from_parent = MPI_REQUEST_NULL;
  };

  std::size_t slots_per_step() const { return static_cast<std::size_t>(g_ - 1) + 3; }
  float* slot(const Step& step, std::size_t k) const { return step.slots + k * slot_stride_; }
  float* child_slot(const Step& step, std::size_t k) const { return slot(step, static_cast<std::size_t>(g_ - 1) + k); }
  float* total_slot(const Step& step) const { return slot(step, static_cast<std::size_t>(g_ - 1) + 2); }
  const Piece& mine(const Step& step) const { return step.shards[static_cast<std::size_t>(layout_.index)]; }
  int head(int node) const { return layout_.heads[static_cast<std::size_t>(node)]; }
  // Messages inside the node weigh what NVLS puts on NVLink; between nodes what they carry.
  void inside_node(bool inside) {
    if (g_ > 1) scale_sends(inside ? intra_scale_ : 1.0);
  }
  // Each tree has its own tags: the trees progress apart, and two nodes may be parent and child in both.
  static int up_tag(std::size_t s) { return kNvlsTreeUpTag + static_cast<int>(s % 2); }
  static int down_tag(std::size_t s) { return kNvlsTreeDownTag + static_cast<int>(s % 2); }

  // Takes tree T's next steps up and down while their messages are in; adds what each waits for to NEEDED.
  bool advance_tree(int t, std::vector<MPI_Request*>& needed) {
    bool moved = false;
    while (up_[t] < started_) {
      Step& step = window_[up_[t] % in_flight_];
      MPI_Request* needs = first_pending(step.scatter.data(), step.scatter.size());
      if (needs == nullptr) needs = first_pending(step.from_children.data(), step.from_children.size());
      if (needs != nullptr) {
        needed.push_back(needs);
        break;
      }
      reduce_up(up_[t]);
      up_[t] += 2, moved = true;
    }
    while (down_[t] < std::min(up_[t], steps_)) {
      Step& step = window_[down_[t] % in_flight_];
      MPI_Request* needs = first_pending(&step.to_parent, 1);
      if (needs == nullptr) needs = first_pending(&step.from_parent, 1);
      if (needs != nullptr) {
        needed.push_back(needs);
        break;
      }
      bring_down(down_[t]);
      down_done_[down_[t]] = 1;
      down_[t] += 2, moved = true;
    }
    return moved;
  }

  // Posts step S's receives and its copies to the node's heads of the other shards.
  void start(std::size_t s) {
    Step& step = window_[s % in_flight_];
    step = Step{};
    step.shards = split_evenly(std::min(step_floats_, count_ - s * step_floats_), g_);
    for (Piece& shard : step.shards) shard.start += s * step_floats_;
    step.slots = slot_base_ + (s % in_flight_) * slots_per_step() * slot_stride_;
    const NodeTreeLinks& tree = trees_[s % 2];
    std::size_t k = 0;
    for (int peer : layout_.local)
      if (peer != ctx_.rank) ctx_.irecv(slot(step, k++), mine(step).length, peer, kNvlsReduceTag, &step.scatter.emplace_back());
    k = 0;
    for (int child : {tree.child0, tree.child1})
      if (child >= 0) ctx_.irecv(child_slot(step, k++), mine(step).length, head(child), up_tag(s), &step.from_children.emplace_back());
    if (tree.parent >= 0) ctx_.irecv(total_slot(step), mine(step).length, head(tree.parent), down_tag(s), &step.from_parent);
    inside_node(true);
    for (std::size_t p = 0; p < layout_.local.size(); ++p)
      if (layout_.local[p] != ctx_.rank)
        ctx_.isend(out_ + step.shards[p].start, step.shards[p].length, layout_.local[p], kNvlsReduceTag, &step.scatter.emplace_back());
  }

  // Up, once its messages are in: the node's copies of my shard and my children's sums added, the sum
  // sent to my parent.
  void reduce_up(std::size_t s) {
    Step& step = window_[s % in_flight_];
    float* shard = out_ + mine(step).start;
    for (std::size_t k = 0; k + 1 < static_cast<std::size_t>(g_); ++k) ctx_.kernels.sum_into(shard, slot(step, k), mine(step).length);
    for (std::size_t k = 0; k < step.from_children.size(); ++k) ctx_.kernels.sum_into(shard, child_slot(step, k), mine(step).length);
    const NodeTreeLinks& tree = trees_[s % 2];
    inside_node(false);
    if (tree.parent >= 0) ctx_.isend(shard, mine(step).length, head(tree.parent), up_tag(s), &step.to_parent);
  }

  // Down, once the total is in and my sum has left: on to my children, and to my node's GPUs.
  void bring_down(std::size_t s) {
    Step& step = window_[s % in_flight_];
    float* shard = out_ + mine(step).start;
    const NodeTreeLinks& tree = trees_[s % 2];
    std::vector<MPI_Request> sent;
    if (tree.parent >= 0) ctx_.kernels.copy(shard, total_slot(step), mine(step).length);
    inside_node(false);
    for (int child : {tree.child0, tree.child1})
      if (child >= 0) ctx_.isend(shard, mine(step).length, head(child), down_tag(s), &sent.emplace_back());
    for (std::size_t p = 0; p < layout_.local.size(); ++p)
      if (layout_.local[p] != ctx_.rank)
        ctx_.irecv(out_ + step.shards[p].start, step.shards[p].length, layout_.local[p], kNvlsGatherTag, &sent.emplace_back());
    inside_node(true);
    for (int peer : layout_.local)
      if (peer != ctx_.rank) ctx_.isend(shard, mine(step).length, peer, kNvlsGatherTag, &sent.emplace_back());
    sending_.push_back(std::move(sent));
  }

  // The first of REQUESTS not complete yet (tested, so that completed ones are released), or nullptr.
  static MPI_Request* first_pending(MPI_Request* requests, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      if (requests[k] == MPI_REQUEST_NULL) continue;
      int index = MPI_UNDEFINED, done = 0;
      MPI_Testany(1, &requests[k], &index, &done, MPI_STATUS_IGNORE);
      if (!done) return &requests[k];
    }
    return nullptr;
  }

  static void wait_for_first(const std::vector<MPI_Request*>& needed) {
    std::vector<MPI_Request> copies;
    for (MPI_Request* r : needed) copies.push_back(*r);
    int index = MPI_UNDEFINED;
    MPI_Waitany(static_cast<int>(copies.size()), copies.data(), &index, MPI_STATUS_IGNORE);
    if (index != MPI_UNDEFINED) *needed[static_cast<std::size_t>(index)] = MPI_REQUEST_NULL;
  }

  float* out_;
  std::size_t count_;
  AllreduceContext& ctx_;
  const NvlsLayout& layout_;
  int g_;
  double intra_scale_ = 1;
  NodeTreeLinks trees_[2];
  std::size_t step_floats_, steps_, in_flight_;
  std::vector<Step> window_;
  std::vector<char> down_done_;
  std::vector<float> slot_memory_;
  float* slot_base_ = nullptr;
  std::size_t slot_stride_ = 0;
  std::size_t started_ = 0, up_[2] = {0, 1}, down_[2] = {0, 1};
  std::deque<std::vector<MPI_Request>> sending_;
};

}  // namespace

void nccl_nvls_tree_allreduce(const float* input, float* output, std::size_t count, AllreduceContext& ctx) {
  ctx.kernels.copy(output, input, count);
  if (ctx.size == 1) return;
  const NvlsLayout layout = layout_of(ctx);
  if (!layout.uniform) {
    if (ctx.rank == 0) std::fprintf(stderr, "ringsim-rank: nccl_nvls_tree needs as many ranks on every node (NVLS heads pair up across nodes)\n");
    MPI_Abort(ctx.comm, 2);
  }
  NvlsTreeRun run(output, count, ctx, layout);
  start_nvls_call("nccl_nvls_tree", static_cast<int>(layout.local.size()), ctx);
  run.run();
}

}  // namespace ringsim
