// What MPI_Request points to on the maestro engine. mpi.h (shared with the S4U engine) declares the
// handle as ringsim::s4u_engine::Request*; each engine's executable defines the struct its own way.
#pragma once

#include <cstddef>

namespace ringsim::s4u_engine {

struct Request {
  bool complete = false;
  int waiter = -1;  // the rank suspended until this request completes, or -1
  Request* next = nullptr;  // in its channel's queue of receives not yet matched
  // Receives: where the data goes (nullptr or a shared buffer: nowhere) and what MPI_Status reports.
  void* buffer = nullptr;
  std::size_t bytes = 0;
  int source = 0;
  int tag = 0;
};

}  // namespace ringsim::s4u_engine
