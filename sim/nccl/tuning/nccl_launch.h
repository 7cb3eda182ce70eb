// The channels NCCL launches one call on (src/enqueue.cc, its "Ring/Tree channel tuning", the same rule
// from 2.5 to 2.29): the communicator's, one fewer at a time while the call has fewer bytes than
// channels x threads x the protocol's bytes per thread (comm.h: LL and LL128 8, Simple 64; a ring's LL
// threshold times its ranks, tuning.cc), down to one. NCCL 2.4 sized only LL's (getKernelInfo). NCCL's time model prices every call at all of the
// communicator's channels; a small call runs on fewer, so each of them carries more of it.
#pragma once

#include "nccl_ring_model.h"

#include "../../rank/nccl_rank_settings.h"

#include <cstdint>

namespace ringsim {

// The threads per channel NCCL gives ALGORITHM (ring or tree) under PROTOCOL (tuning.cc maxThreads):
// LL 512, LL128 640, Simple 512, or 256 for a ring whose search found at most a PCIe Gen3 x16 (12 GB/s)
// over all its channels inside the node.
int nccl_max_threads(const NcclCase& c, NcclAlgorithmKind algorithm, NcclProtocol protocol);

// The channels a call of BYTES runs on under ALGORITHM (ring or tree) and PROTOCOL (not auto_choice).
int nccl_launch_channels(const NcclCase& c, NcclAlgorithmKind algorithm, NcclProtocol protocol, std::uint64_t bytes);

// The channels an NVLS or NVLS tree call runs on: the communicator's nvlsChannels (transport/nvls.cc,
// NCCL_NVLS_NCHANNELS), 16 on Hopper; on Blackwell 32 from 2.25, 24 on one node from 2.27. Not the
// NVLS search's channels, which NCCL's time model prices (c.nvls_channels).
int nccl_nvls_launch_channels(const NcclCase& c);

}  // namespace ringsim
