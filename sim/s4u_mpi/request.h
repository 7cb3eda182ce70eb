// A pending MPI_Isend / MPI_Irecv of the S4U engine: the SimGrid comm that carries it and, when the
// buffers hold values, the copy of the data it delivers.
#pragma once

#include <simgrid/s4u/Comm.hpp>

#include <cstddef>
#include <cstdint>

namespace ringsim::s4u_engine {

struct Channel;

struct Request {
  simgrid::s4u::CommPtr comm;
  // Receives: where the data goes and the sender's copy SimGrid hands over (nullptr: no data,
  // the buffers are shared).
  void* receive_buffer = nullptr;
  std::size_t receive_bytes = 0;
  void* delivered = nullptr;
  int source = 0;
  int tag = 0;
  // Receives: the channel and the number of this receive on it, to tell the send it has arrived.
  Channel* channel = nullptr;
  std::uint64_t receive_number = 0;
};

}  // namespace ringsim::s4u_engine
