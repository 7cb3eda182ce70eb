// A pending MPI_Isend / MPI_Irecv of the S4U engine: the SimGrid comm that carries it and, when the
// buffers hold values, the copy of the data it delivers.
#pragma once

#include <simgrid/s4u/Comm.hpp>

#include <cstddef>

namespace ringsim::s4u_engine {

struct Request {
  simgrid::s4u::CommPtr comm;
  // Receives: where the data goes and the sender's copy SimGrid hands over (nullptr: no data,
  // the buffers are shared).
  void* receive_buffer = nullptr;
  std::size_t receive_bytes = 0;
  void* delivered = nullptr;
  int source = 0;
  int tag = 0;
};

}  // namespace ringsim::s4u_engine
