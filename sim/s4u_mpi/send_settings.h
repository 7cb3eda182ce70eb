// SMPI's smpi/send-is-detached-thresh for the S4U engine: MPI_Send of fewer bytes returns at once.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace ringsim::s4u_engine {

// What a message weighs on the network beyond its data: SMPI charges every point-to-point message its
// MPI envelope, 16 bytes for tag, destination and communicator (3.32 smpi_request.cpp, Request::start),
// about 13 ns per message at 10 Gb/s; without it the engines ran 0.07-0.12% fast at 512 ranks.
constexpr std::size_t kMpiEnvelopeBytes = 16;

// How a rank's sends go on the wire, set by the rank program (engine_probes.h pace_sends, scale_sends).
struct SendShape {
  double pace_Bps = 0;        // the most bytes per second a send flows at; 0: unbounded
  double wire_per_byte = 1;   // bytes the network carries per byte of message
  // How long after its transfer ends a message's receive completes (its sender's completes at the end):
  // NCCL's per-hop latency beyond the wire (engine_probes.h delay_deliveries); maestro engine only.
  double delivery_delay_s = 0;
  // What a message of BYTES weighs on the network, its envelope included.
  std::uint64_t payload(std::size_t bytes) const {
    const std::uint64_t wire = wire_per_byte == 1 ? bytes : static_cast<std::uint64_t>(std::llround(wire_per_byte * static_cast<double>(bytes)));
    return wire + kMpiEnvelopeBytes;
  }
};

// Read once from --cfg=smpi/send-is-detached-thresh when given, else SMPI's default (65536).
void set_detached_send_threshold(std::size_t bytes);
std::size_t detached_send_threshold();

}  // namespace ringsim::s4u_engine
