#include "message_matching.h"

#include "maestro_activities.h"
#include "../s4u_mpi/send_settings.h"

#include <fmt/format.h>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace ringsim::maestro_engine {
namespace {

// Ranks and tags each fit in 21 bits (2M ranks; the rank program's tags are below 2^21).
constexpr int kFieldBits = 21;
constexpr std::uint64_t kFieldLimit = std::uint64_t{1} << kFieldBits;

}  // namespace

// One message in flight: posted by its sender, matched with a receive, carried by one transfer.
struct MessageMatching::Message final : TransferEnd {
  MessageMatching* owner = nullptr;
  int source = 0;
  int destination = 0;
  void* payload = nullptr;
  std::size_t bytes = 0;
  s4u_engine::SendShape shape;  // its sender's when posted
  Request* send = nullptr;
  Request* receive = nullptr;
  Message* next = nullptr;  // in its channel's queue of sends not yet matched
  NetworkTransfer transfer{*this};

  void transfer_ended() override {
    MessageMatching& matching = *owner;
    if (shape.delivery_delay_s > 0) {
      // The sender is done; the receiver sees the message later, when a timer delivers it (and runs the
      // woken receiver).
      if (send != nullptr) matching.complete(*send);
      send = nullptr;
      matching.deliver_at(this, simgrid::s4u::Engine::get_clock() + shape.delivery_delay_s);
    } else {
      deliver();  // after which this message may carry another one
    }
    matching.fibers_.run_ready();
  }

  void deliver() {
    if (payload != nullptr && receive->buffer != nullptr) std::memcpy(receive->buffer, payload, std::min(bytes, receive->bytes));
    std::free(payload);
    payload = nullptr;
    owner->complete(*receive);
    if (send != nullptr) owner->complete(*send);
    send = receive = nullptr;
    owner->spare_messages_.push_back(this);
  }
};

MessageMatching::MessageMatching(const std::vector<simgrid::s4u::Host*>& host_of_rank, RankFibers& fibers)
    : host_of_rank_(host_of_rank), fibers_(fibers), recent_(host_of_rank.size()),
      send_shape_(host_of_rank.size()) {}

MessageMatching::~MessageMatching() {
  // Sends never received (a rank ended without its receive): their copies.
  for (auto& [key, channel] : channels_)
    while (Message* message = channel.sends.pop()) {
      std::free(message->payload);
      delete message;
    }
  for (Message* message : spare_messages_) delete message;
}

MessageMatching::Channel& MessageMatching::channel(int owner, int source, int destination, int tag) {
  if (tag < 0 || static_cast<std::uint64_t>(tag) >= kFieldLimit)
    throw std::invalid_argument(fmt::format("tag {} outside the maestro engine's range 0..{}", tag, kFieldLimit - 1));
  const std::uint64_t key = (static_cast<std::uint64_t>(destination) << (2 * kFieldBits)) |
                            (static_cast<std::uint64_t>(source) << kFieldBits) | static_cast<std::uint64_t>(tag);
  RecentChannels& recent = recent_[static_cast<std::size_t>(owner)];
  for (std::size_t i = 0; i < RecentChannels::kSize; ++i)
    if (recent.keys[i] == key) return *recent.channels[i];
  Channel& found = channels_[key];
  recent.keys[recent.next] = key;
  recent.channels[recent.next] = &found;
  recent.next = (recent.next + 1) % RecentChannels::kSize;
  return found;
}

MessageMatching::Message* MessageMatching::new_message() {
  if (spare_messages_.empty()) return new Message;
  Message* message = spare_messages_.back();
  spare_messages_.pop_back();
  return message;
}

void MessageMatching::post_send(int source, int destination, int tag, void* payload, std::size_t bytes, Request* send) {
  Message* message = new_message();
  message->owner = this;
  message->source = source;
  message->destination = destination;
  message->payload = payload;
  message->bytes = bytes;
  message->shape = send_shape_[static_cast<std::size_t>(source)];
  message->send = send;
  Channel& queue = channel(source, source, destination, tag);
  if (Request* receive = queue.receives.pop(); receive != nullptr) start(message, receive);
  else queue.sends.push(message);
}

void MessageMatching::post_receive(int destination, Request* receive) {
  Channel& queue = channel(destination, receive->source, destination, receive->tag);
  if (Message* message = queue.sends.pop(); message != nullptr) start(message, receive);
  else queue.receives.push(receive);
}

void MessageMatching::start(Message* message, Request* receive) {
  message->receive = receive;
  message->transfer.start(host_of_rank_[static_cast<std::size_t>(message->source)],
                          host_of_rank_[static_cast<std::size_t>(message->destination)],
                          static_cast<double>(message->shape.payload(message->bytes)), message->shape.pace_Bps);
  ++messages_;
}

void MessageMatching::deliver_at(Message* message, double date) {
  if (open_batch_ == nullptr || open_batch_->date != date) {
    auto* batch = new DeliveryBatch{date, {}};
    open_batch_ = batch;
    simgrid::kernel::timer::Timer::set(date, [this, batch] {
      if (open_batch_ == batch) open_batch_ = nullptr;
      for (Message* delivered : batch->messages) delivered->deliver();
      delete batch;
      fibers_.run_ready();
    });
  }
  open_batch_->messages.push_back(message);
}

void MessageMatching::complete(Request& request) {
  request.complete = true;
  if (request.waiter >= 0) fibers_.wake(request.waiter);
}

}  // namespace ringsim::maestro_engine
