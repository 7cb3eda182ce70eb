// NCCL's NVLS tree allreduce over several NVSwitch nodes (NCCL 2.18 on, Hopper and later GPUs;
// device/all_reduce.h NCCL_ALGO_NVLS_TREE, connect.cc connectNvls). Inside each node NVLS reduces
// every shard onto its head GPU (one head per GPU, as nccl_nvls); the heads of a shard, one per node,
// add their nodes' sums up NCCL's double binary tree over the nodes (ncclGetDtree: channel c runs
// tree c % 2) and bring the total back down, each through the NIC beside it; each head then stores
// the total once for the NVSwitch to multicast to its node's GPUs.
//
// As plain MPI: per step of G shards (G ranks per node), a direct reduce-scatter inside the node, the
// shard's tree across nodes, and a direct allgather inside the node; messages inside the node are
// charged as nccl_nvls charges them (engine_probes.h scale_sends), those between nodes as sent. Steps
// alternate between the two trees. NCCL launches NCCL_NVLS_NCHANNELS channels (16 on Hopper), channel
// c on tree c % 2, each cutting its part of the buffer into NCCL's chunks per head (sized per era and
// call, nvls_chunks.h); the channels of a tree share its NICs and move alike, so here one step of a
// tree carries the chunk of each of its channels: a shard of channels / 2 chunks, as many messages as
// one channel would send. Each tree's way up and way down hold NCCL_STEPS steps per hop, as NCCL's
// connection FIFOs do: a rank takes a step as soon as its messages are in and its slots free,
// whatever the other tree or the root's round trip is doing (a window over the round trip, or one
// shared by the trees, held a 10-node tree to half its NICs' rate). A connection sends its steps one
// after the other, as its queue pair does.
#include "buffer_pieces.h"

#include "allreduce.h"
#include "engine_probes.h"
#include "message_tags.h"
#include "rank_memory.h"
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
        chunk_floats_(nvls_tree_chunk_floats(ctx.nccl, static_cast<int>(layout.heads.size()), g_, count * sizeof(float)) *
                      static_cast<std::size_t>(std::max(1, ctx.nccl.channels / 2))),
        step_floats_(chunk_floats_ * static_cast<std::size_t>(g_)), steps_((count + step_floats_ - 1) / step_floats_),
        window_(std::min<std::size_t>(kNvlsTreeStepsPerHop, (steps_ + 1) / 2)), ups_(2 * window_), downs_(2 * window_),
        to_parent_(steps_, MPI_REQUEST_NULL), to_children_(2 * steps_, MPI_REQUEST_NULL), up_done_(steps_, 0), down_done_(steps_, 0) {
    intra_scale_ = nvls_wire_per_byte(g_, ctx.nccl);
    for (int t = 0; t < 2; ++t) trees_[t] = nccl_double_tree(static_cast<int>(layout.heads.size()), layout.node, t);
    // Received copies and partial sums land in slots; with SMPI-shared buffers every slot is the scratch.
    const std::size_t shard_floats = std::min(chunk_floats_, (count + g_ - 1) / static_cast<std::size_t>(g_));
    slot_base_ = ctx.scratch;
    if (ctx.kernels.hold_values() || shard_floats > count) {
      slot_memory_ = slot_memory(2 * window_ * slots_per_step() * shard_floats);
      slot_base_ = slot_memory_.get();
      slot_stride_ = shard_floats;
    }
  }

  // The reduction up and the broadcast down progress independently, and so do the two trees, as
  // NCCL's reduce and broadcast warps of its channels do: each takes its next step as soon as its
  // messages are in; when none can, the rank waits for the first message one of them needs. Each
  // connection holds NCCL_STEPS steps, so a rank posts the receives of a tree's step up once the
  // tree's step that many before it has gone up, and those of a step down once that one has come
  // down: credit per hop and per tree, as NCCL's FIFOs of each channel give it, never a round trip to
  // the root nor a wait for the other tree.
  void run() {
    while (down_[0] < steps_ || down_[1] < steps_) {
      bool moved = post_credits();
      std::vector<MPI_Request*> needed;
      for (int t = 0; t < 2; ++t) moved = advance_tree(t, needed) || moved;
      // Sends and the allgather's receives need nothing more until the end: released as they complete.
      while (!sending_.empty() && first_pending(sending_.front().data(), sending_.front().size()) == nullptr) sending_.pop_front();
      if (!moved) wait_for_first(needed);
    }
    for (std::vector<MPI_Request>& sent : sending_) MPI_Waitall(static_cast<int>(sent.size()), sent.data(), MPI_STATUSES_IGNORE);
    MPI_Waitall(static_cast<int>(to_parent_.size()), to_parent_.data(), MPI_STATUSES_IGNORE);
    MPI_Waitall(static_cast<int>(to_children_.size()), to_children_.data(), MPI_STATUSES_IGNORE);
    scale_sends(1.0);
  }

 private:
  // A step's way up: the node's copies of my shard and my children's sums, in slots of their own.
  struct UpStep {
    float* slots = nullptr;  // G - 1 copies of my shard, up to 2 children's sums
    std::vector<MPI_Request> scatter, from_children;
  };
  // Its way down: the total from my parent.
  struct DownStep {
    float* slot = nullptr;
    MPI_Request from_parent = MPI_REQUEST_NULL;
  };

  std::size_t slots_per_step() const { return static_cast<std::size_t>(g_ - 1) + 3; }
  // Step S's place among its tree's steps in flight: tree s % 2 holds steps s, s + 2, ...
  std::size_t place(std::size_t s) const { return (s % 2) * window_ + (s / 2) % window_; }
  float* step_slots(std::size_t s) const { return slot_base_ + place(s) * slots_per_step() * slot_stride_; }
  float* slot(const UpStep& up, std::size_t k) const { return up.slots + k * slot_stride_; }
  float* child_slot(const UpStep& up, std::size_t k) const { return slot(up, static_cast<std::size_t>(g_ - 1) + k); }
  // Shard P of step S's G shards, and mine among them.
  Piece shard_of(std::size_t s, std::size_t p) const {
    Piece piece = EvenPieces(std::min(step_floats_, count_ - s * step_floats_), g_)[static_cast<int>(p)];
    piece.start += s * step_floats_;
    return piece;
  }
  Piece mine(std::size_t s) const { return shard_of(s, static_cast<std::size_t>(layout_.index)); }
  int head(int node) const { return layout_.heads[static_cast<std::size_t>(node)]; }
  // Messages inside the node weigh what NVLS puts on NVLink; between nodes what they carry.
  void inside_node(bool inside) {
    if (g_ > 1) scale_sends(inside ? intra_scale_ : 1.0);
  }
  // Each tree has its own tags: the trees progress apart, and two nodes may be parent and child in both.
  static int tree_tag(int base, std::size_t s) { return base + static_cast<int>(s % 2); }

  // Posts the receives of every step whose slots are free, up and down, per tree.
  bool post_credits() {
    bool moved = false;
    const std::size_t behind = 2 * window_;  // the tree's step that many before uses the same slots
    for (int t = 0; t < 2; ++t) {
      for (std::size_t& s = up_posted_[t]; s < steps_ && (s < behind || up_done_[s - behind] != 0); s += 2, moved = true) start_up(s);
      for (std::size_t& s = down_posted_[t]; s < steps_ && (s < behind || down_done_[s - behind] != 0); s += 2, moved = true) start_down(s);
    }
    return moved;
  }

  // Takes tree T's next steps up and down while their messages are in; adds what each waits for to NEEDED.
  bool advance_tree(int t, std::vector<MPI_Request*>& needed) {
    bool moved = false;
    while (up_[t] < up_posted_[t]) {
      UpStep& up = ups_[place(up_[t])];
      MPI_Request* needs = first_pending(up.scatter.data(), up.scatter.size());
      if (needs == nullptr) needs = first_pending(up.from_children.data(), up.from_children.size());
      if (needs == nullptr && up_[t] >= 2) needs = first_pending(&to_parent_[up_[t] - 2], 1);  // the connection's FIFO
      if (needs != nullptr) {
        needed.push_back(needs);
        break;
      }
      reduce_up(up_[t]);
      up_done_[up_[t]] = 1;
      up_[t] += 2, moved = true;
    }
    while (down_[t] < std::min(up_[t], down_posted_[t])) {
      const std::size_t s = down_[t];
      MPI_Request* needs = first_pending(&to_parent_[s], 1);
      if (needs == nullptr) needs = first_pending(&downs_[place(s)].from_parent, 1);
      if (needs == nullptr && s >= 2) needs = first_pending(&to_children_[2 * (s - 2)], 2);  // the connections' FIFOs
      if (needs != nullptr) {
        needed.push_back(needs);
        break;
      }
      bring_down(s);
      down_done_[s] = 1;
      down_[t] += 2, moved = true;
    }
    return moved;
  }

  // Posts step S's receives up (the node's copies of my shard, my children's sums) and sends my copies
  // of the other shards to their heads.
  void start_up(std::size_t s) {
    UpStep& up = ups_[place(s)];
    up = UpStep{};
    up.slots = step_slots(s);
    const std::size_t length = mine(s).length;
    const NodeTreeLinks& tree = trees_[s % 2];
    std::size_t k = 0;
    for (int peer : layout_.local)
      if (peer != ctx_.rank) ctx_.irecv(slot(up, k++), length, peer, tree_tag(kNvlsTreeScatterTag, s), &up.scatter.emplace_back());
    k = 0;
    for (int child : {tree.child0, tree.child1})
      if (child >= 0) ctx_.irecv(child_slot(up, k++), length, head(child), tree_tag(kNvlsTreeUpTag, s), &up.from_children.emplace_back());
    inside_node(true);
    for (std::size_t p = 0; p < layout_.local.size(); ++p)
      if (const Piece other = shard_of(s, p); layout_.local[p] != ctx_.rank)
        ctx_.isend(out_ + other.start, other.length, layout_.local[p], tree_tag(kNvlsTreeScatterTag, s), &up.scatter.emplace_back());
  }

  // Posts step S's receive down: the total from my parent (none at the root).
  void start_down(std::size_t s) {
    DownStep& down = downs_[place(s)];
    down = DownStep{};
    down.slot = step_slots(s) + (static_cast<std::size_t>(g_ - 1) + 2) * slot_stride_;
    const NodeTreeLinks& tree = trees_[s % 2];
    if (tree.parent >= 0) ctx_.irecv(down.slot, mine(s).length, head(tree.parent), tree_tag(kNvlsTreeDownTag, s), &down.from_parent);
  }

  // Up, once its messages are in: the node's copies of my shard and my children's sums added, the sum
  // sent to my parent.
  void reduce_up(std::size_t s) {
    UpStep& up = ups_[place(s)];
    const Piece piece = mine(s);
    float* shard = out_ + piece.start;
    for (std::size_t k = 0; k + 1 < static_cast<std::size_t>(g_); ++k) ctx_.kernels.sum_into(shard, slot(up, k), piece.length);
    for (std::size_t k = 0; k < up.from_children.size(); ++k) ctx_.kernels.sum_into(shard, child_slot(up, k), piece.length);
    const NodeTreeLinks& tree = trees_[s % 2];
    inside_node(false);
    if (tree.parent >= 0) ctx_.isend(shard, piece.length, head(tree.parent), tree_tag(kNvlsTreeUpTag, s), &to_parent_[s]);
  }

  // Down, once the total is in and my sum has left: on to my children, and to my node's GPUs.
  void bring_down(std::size_t s) {
    const Piece piece = mine(s);
    float* shard = out_ + piece.start;
    const NodeTreeLinks& tree = trees_[s % 2];
    std::vector<MPI_Request> sent;
    if (tree.parent >= 0) ctx_.kernels.copy(shard, downs_[place(s)].slot, piece.length);
    inside_node(false);
    for (int k = 0; k < 2; ++k)
      if (const int child = k == 0 ? tree.child0 : tree.child1; child >= 0)
        ctx_.isend(shard, piece.length, head(child), tree_tag(kNvlsTreeDownTag, s), &to_children_[2 * s + static_cast<std::size_t>(k)]);
    for (std::size_t p = 0; p < layout_.local.size(); ++p)
      if (const Piece other = shard_of(s, p); layout_.local[p] != ctx_.rank)
        ctx_.irecv(out_ + other.start, other.length, layout_.local[p], tree_tag(kNvlsTreeGatherTag, s), &sent.emplace_back());
    inside_node(true);
    for (int peer : layout_.local)
      if (peer != ctx_.rank) ctx_.isend(shard, piece.length, peer, tree_tag(kNvlsTreeGatherTag, s), &sent.emplace_back());
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
  std::size_t chunk_floats_, step_floats_, steps_, window_;
  std::vector<UpStep> ups_;
  std::vector<DownStep> downs_;
  // Per step: my sum on its way up, which its total may not overwrite; the total on its way down to my
  // two children. A tree's next step to the same peer starts once they are through: one connection
  // carries its steps one after the other, as a queue pair does, where steps in flight side by side
  // would each take a share of the NIC and every step would cross each hop as late as the last.
  std::vector<MPI_Request> to_parent_, to_children_;
  std::vector<char> up_done_, down_done_;
  SlotMemory slot_memory_;
  float* slot_base_ = nullptr;
  std::size_t slot_stride_ = 0;
  std::size_t up_posted_[2] = {0, 1}, down_posted_[2] = {0, 1}, up_[2] = {0, 1}, down_[2] = {0, 1};
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
