// The bookkeeping of one point-to-point channel of the S4U engine (messages from one rank to
// another with one tag), and the eager sends it lets a receiver retire.
#pragma once

#include <simgrid/s4u/Comm.hpp>

#include <cstdint>
#include <deque>

namespace simgrid::s4u {
class Mailbox;
}

namespace ringsim::s4u_engine {

// A send below the detached threshold: complete for its sender at once, as under SMPI. It is not a
// SimGrid-detached comm (SimGrid 3.32 keeps those in one global list that every completion walks, a
// cost that grows with the number of ranks); its sender holds it until the receiver has it, then
// retires it with a wait that returns at once.
struct EagerSend {
  simgrid::s4u::CommPtr comm;
  bool delivered = false;
  bool sender_gone = false;  // its sender ended before the receiver saw it: the receiver deletes it
};

// The messages from one rank to another with one tag: the mailbox that matches them (SimGrid matches
// a mailbox's sends and receives first come, first served, which is MPI's order) and the eager sends
// not yet received, by send number, so that the k-th receive can tell the k-th send it has arrived.
struct Channel {
  simgrid::s4u::Mailbox* mailbox = nullptr;
  std::uint64_t receives_posted = 0;
  std::uint64_t first_send = 0;  // send number of sends.front()
  std::deque<EagerSend*> sends;  // nullptr: a send its sender waits for itself, or one already delivered

  // Records a send posted on this channel (EAGER: nullptr unless the sender will not wait for it).
  void posted_send(EagerSend* eager) { sends.push_back(eager); }
  // The number the next receive will match.
  std::uint64_t post_receive() { return receives_posted++; }
  // Receive number RECEIVE has completed: its send has been delivered.
  void received(std::uint64_t receive);
};

}  // namespace ringsim::s4u_engine
