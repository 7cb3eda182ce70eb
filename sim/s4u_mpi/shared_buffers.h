// SMPI_SHARED_MALLOC's twin: buffers whose values mean nothing (the rank program skips its local work
// on them), so every rank may be handed the same untouched, unreserved memory. Messages from or to
// them carry no data.
#pragma once

#include <cstddef>

namespace ringsim::s4u_engine {

void* allocate_shared(std::size_t bytes);
void free_shared(void* data);
// Whether DATA lies in a shared buffer.
bool is_shared(const void* data);

}  // namespace ringsim::s4u_engine
