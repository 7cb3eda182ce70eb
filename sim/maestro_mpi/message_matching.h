// Point-to-point messages of the maestro engine: sends and receives meet in per-channel queues (one
// channel per source, destination and tag, first posted first matched, as MPI matches by source and
// tag), and each matched pair becomes one SimGrid host-to-host transfer (the network action a comm
// would create, maestro_activities.h), started at once: at the later of the two post dates, as SMPI
// and the S4U engine do. Its end, in the maestro, completes the receive (and a send that waited for
// it) and runs the ranks waiting on them.
#pragma once

#include "maestro_request.h"
#include "rank_fibers.h"
#include "../s4u_mpi/send_settings.h"

#include <simgrid/s4u/Host.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ringsim::maestro_engine {

using Request = s4u_engine::Request;

class MessageMatching {
 public:
  // HOST_OF_RANK: every rank's host.
  MessageMatching(const std::vector<simgrid::s4u::Host*>& host_of_rank, RankFibers& fibers);
  ~MessageMatching();
  MessageMatching(const MessageMatching&) = delete;
  MessageMatching& operator=(const MessageMatching&) = delete;

  // Posts a message of BYTES from SOURCE to DESTINATION with TAG; PAYLOAD is the sender's private copy
  // of the data (malloc'd, freed on delivery) or nullptr. SEND: the sender's request, completed when
  // the transfer ends, or nullptr for a send complete at once (eager).
  void post_send(int source, int destination, int tag, void* payload, std::size_t bytes, Request* send);
  // How SOURCE's later sends go on the wire (ringsim_engine_pace_sends, ringsim_engine_scale_sends).
  s4u_engine::SendShape& send_shape(int source) { return send_shape_[static_cast<std::size_t>(source)]; }

  // Posts RECEIVE (its buffer, bytes, source and tag filled in) on DESTINATION.
  void post_receive(int destination, Request* receive);

  // Marks REQUEST complete and wakes the rank waiting on it.
  void complete(Request& request);

  // Messages carried so far (one SimGrid transfer each).
  std::uint64_t messages() const { return messages_; }

 private:
  struct Message;
  // A first-in first-out queue through the items' own `next` pointers.
  template <typename Item>
  struct Queue {
    Item* first = nullptr;
    Item* last = nullptr;
    void push(Item* item) {
      (last != nullptr ? last->next : first) = item;
      last = item;
    }
    Item* pop() {  // nullptr when empty
      Item* item = first;
      if (item == nullptr) return nullptr;
      first = item->next;
      if (first == nullptr) last = nullptr;
      item->next = nullptr;
      return item;
    }
  };
  // The unmatched sends and receives of one channel (one of the two is empty).
  struct Channel {
    Queue<Message> sends;
    Queue<Request> receives;
  };

  // The channel of (SOURCE, DESTINATION, TAG), as seen by the rank OWNER that posts on it: each rank
  // remembers the few channels it used last, so a rank's steady traffic skips the table.
  Channel& channel(int owner, int source, int destination, int tag);
  Message* new_message();
  void start(Message* message, Request* receive);
  // Delivers MESSAGE, whose transfer has ended, at DATE (a delayed delivery, SendShape::delivery_delay_s).
  void deliver_at(Message* message, double date);

  const std::vector<simgrid::s4u::Host*>& host_of_rank_;
  RankFibers& fibers_;
  std::unordered_map<std::uint64_t, Channel> channels_;  // nodes never move: pointers to them stay valid
  struct RecentChannels {
    static constexpr std::size_t kSize = 4;
    std::array<std::uint64_t, kSize> keys;
    std::array<Channel*, kSize> channels{};
    std::size_t next = 0;  // the entry to replace
    RecentChannels() { keys.fill(~std::uint64_t{0}); }
  };
  std::vector<RecentChannels> recent_;  // per rank
  std::vector<s4u_engine::SendShape> send_shape_;  // per rank
  std::vector<Message*> spare_messages_;  // finished, for reuse: a message is allocated once
  // The messages one SimGrid timer delivers at DATE. Ranks in step finish their transfers together and
  // owe the same delay, so one timer serves them all (a 1024-rank nccl_ring: about 3% of its delayed
  // deliveries fall on a new date); the last batch opened takes more messages for its date.
  struct DeliveryBatch {
    double date;
    std::vector<Message*> messages;
  };
  DeliveryBatch* open_batch_ = nullptr;
  std::uint64_t messages_ = 0;
};

}  // namespace ringsim::maestro_engine
