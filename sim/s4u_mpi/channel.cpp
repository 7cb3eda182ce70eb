#include "channel.h"

namespace ringsim::s4u_engine {

void Channel::received(std::uint64_t receive) {
  const std::uint64_t index = receive - first_send;
  if (index < sends.size() && sends[index] != nullptr) {
    EagerSend* send = sends[index];
    sends[index] = nullptr;  // its sender may retire it from now on
    if (send->sender_gone)
      delete send;
    else
      send->delivered = true;
  }
  // Entries without an eager send need no word from their receive: forget them (a receive number
  // below first_send then falls outside the window above).
  while (!sends.empty() && sends.front() == nullptr) {
    sends.pop_front();
    ++first_send;
  }
}

}  // namespace ringsim::s4u_engine
