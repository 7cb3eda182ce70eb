// NVLink as NCCL sees it (src/graph/topo.h's per-link bandwidths) and the ring channels NCCL's topology
// search finds inside one node whose GPUs each have NVLink links into an NVSwitch (src/graph/search.cc
// ncclTopoCompute), per release: how many channels, at what bandwidth each. Across nodes the NICs
// decide (nccl_rails.h); inside a PCIe-only node the search finds one channel at the PCIe rate.
#pragma once

#include "nccl_settings.h"

namespace ringsim {

struct NcclIntraSearch {
  int channels = 1;           // graph->nChannels after the search's own duplication
  double bandwidth_GBps = 0;  // graph->bwIntra: per channel, in NCCL's GB/s
};

// NCCL's bandwidth for LINKS NVLink links of one GPU (links x SMxx_NVLINK_BW / NVLINK_WIDTH of RELEASE).
double nccl_nvlink_GBps(const NcclRelease& release, int compute_capability, int links);

// The search on one NVSwitch node whose GPUs have LINKS links each (2.5 on: 2.4 had no search). It
// starts at the fastest speed of the release's intra-node list that one GPU's NVLink carries, finds as
// many channels as the GPU's NVLink bandwidth holds at that speed (at most MAXCHANNELS/2), and, while
// that leaves bandwidth unused, tries slower speeds down to half the best; a ring whose speed is at
// least 25 GB/s is then duplicated at half the speed (2.7 on; 2.16-2.17 past Ampere from 50 GB/s; from
// 2.18 not past Ampere below 50 GB/s with more than 4 channels).
NcclIntraSearch nccl_nvswitch_search(const NcclRelease& release, int compute_capability, int links);

// The NVLS search on one NVSwitch node of GPUS GPUs with LINKS links each (2.18 on; search.cc,
// ncclTopoSearchTryNvls): one channel per GPU, its head, each pulling from and pushing to every GPU
// through the switch, twice its own; so a GPU's NVLink carries GPUS + 1 channels' bandwidth each way,
// at the fastest speed of the release's intra-node list that fits.
NcclIntraSearch nccl_nvls_search(const NcclRelease& release, int compute_capability, int links, int gpus);

}  // namespace ringsim
