// SMPI's smpi/send-is-detached-thresh for the S4U engine: MPI_Send of fewer bytes returns at once.
#pragma once

#include <cstddef>

namespace ringsim::s4u_engine {

// What a message weighs on the network beyond its data: SMPI charges every point-to-point message its
// MPI envelope, 16 bytes for tag, destination and communicator (3.32 smpi_request.cpp, Request::start),
// about 13 ns per message at 10 Gb/s; without it the engines ran 0.07-0.12% fast at 512 ranks.
constexpr std::size_t kMpiEnvelopeBytes = 16;

// Read once from --cfg=smpi/send-is-detached-thresh when given, else SMPI's default (65536).
void set_detached_send_threshold(std::size_t bytes);
std::size_t detached_send_threshold();

}  // namespace ringsim::s4u_engine
