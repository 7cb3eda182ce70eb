// The S4U engine's channel bookkeeping: the k-th receive on a channel tells the k-th send, and only an
// eager one, that it has arrived, whatever order the receives complete in.
#include "../../sim/s4u_mpi/channel.h"

#include <doctest/doctest.h>

using ringsim::s4u_engine::Channel;
using ringsim::s4u_engine::EagerSend;

TEST_CASE("s4u channel: receives complete out of order and reach their own eager send") {
  Channel channel;
  EagerSend first, third;
  channel.posted_send(&first);
  channel.posted_send(nullptr);  // a send its sender waits for
  channel.posted_send(&third);
  const auto r0 = channel.post_receive(), r1 = channel.post_receive(), r2 = channel.post_receive();
  CHECK(r0 == 0);
  CHECK(r2 == 2);

  channel.received(r2);
  CHECK(third.delivered);
  CHECK_FALSE(first.delivered);
  CHECK(channel.sends.size() == 3);  // the front is still waiting

  channel.received(r1);
  CHECK_FALSE(first.delivered);
  channel.received(r0);
  CHECK(first.delivered);
  CHECK(channel.sends.empty());
  CHECK(channel.first_send == 3);

  // Later sends keep their numbers.
  EagerSend fourth;
  channel.posted_send(&fourth);
  channel.received(channel.post_receive());
  CHECK(fourth.delivered);
  CHECK(channel.first_send == 4);
}

TEST_CASE("s4u channel: a send whose sender has ended is deleted by its receive") {
  Channel channel;
  auto* orphan = new EagerSend;
  orphan->sender_gone = true;
  channel.posted_send(orphan);
  channel.received(channel.post_receive());  // deletes it (AddressSanitizer would report a leak otherwise)
  CHECK(channel.sends.empty());
}
