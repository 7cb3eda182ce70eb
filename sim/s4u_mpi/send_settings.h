// SMPI's smpi/send-is-detached-thresh for the S4U engine: MPI_Send of fewer bytes returns at once.
#pragma once

#include <cstddef>

namespace ringsim::s4u_engine {

// Read once from --cfg=smpi/send-is-detached-thresh when given, else SMPI's default (65536).
void set_detached_send_threshold(std::size_t bytes);
std::size_t detached_send_threshold();

}  // namespace ringsim::s4u_engine
