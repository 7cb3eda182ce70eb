// What only the simulator can tell the rank program. Under SMPI these read SimGrid directly, outside
// MPI, so they cost no simulated time (MPI_Wtime itself advances the clock a little); the Open MPI
// build answers "not available".
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

namespace ringsim {

// SimGrid's clock, in simulated seconds; nullopt under a real MPI.
std::optional<double> simulated_clock_s();

// Lets the simulated clock advance by SECONDS for the calling rank, which does nothing meanwhile (a
// GPU thread block's fixed per-slice work, nccl_ring_allreduce.cpp). False under a real MPI.
bool sleep_simulated(double seconds);

// Waits until one of the COUNT REQUESTS completes or the simulated clock reaches DEADLINE_S, whichever
// is first: MPI_Waitany with a deadline, which MPI lacks. Returns the index of the completed request
// (finished and set to MPI_REQUEST_NULL, as MPI_Waitany does) or -1 at the deadline; nullopt where the
// engine has no such wait (SMPI, a real MPI), where the caller sleeps and tests instead.
std::optional<int> wait_any_until(int count, MPI_Request* requests, double deadline_s);

// From now on the calling rank's sends flow at most at BYTES_PER_SECOND of message (0: unbounded), as
// a GPU thread block that writes LL's lines at its own pace sends them (nccl_ring_allreduce.cpp).
// False where the engine cannot bound a message's rate: SMPI (its sends take no rate) and a real MPI.
bool pace_sends(double bytes_per_second);

// From now on each of the calling rank's sends occupies the network as WIRE_PER_BYTE times its bytes
// (1: as sent), where a message stands for traffic that a switch shapes on the way: NVLink SHARP's
// reduction and multicast in the NVSwitch (nccl_nvls_allreduce.cpp). False where the engine cannot
// charge a message other than its size: SMPI and a real MPI.
bool scale_sends(double wire_per_byte);

// From now on each of the calling rank's messages reaches its receiver SECONDS after its transfer ends
// (the send completes when the transfer ends, the receive that much later): a latency each message pays
// without holding its sender, as NCCL's flag poll and network proxy add to every Simple step
// (nccl_ring_allreduce.cpp). False where the engine cannot: SMPI, the S4U engine, a real MPI.
bool delay_deliveries(double seconds);

// Test hook (`--count-messages FILE`): from now to the end of the simulation, counts every message
// the network model carries (point-to-point messages, including those inside MPI collectives), and
// writes the count to FILE when the simulation ends. Call it on one rank only. False under a real MPI.
bool count_network_messages_until_end(const std::string& file);

}  // namespace ringsim
