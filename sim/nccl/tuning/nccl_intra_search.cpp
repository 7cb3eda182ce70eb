#include "nccl_intra_search.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace ringsim {
namespace {

// search.cc's intra-node speed list for the GPUs (GB/s per channel), fastest first.
std::span<const float> intra_speeds(const NcclRelease& r, int cc) {
  if (cc >= 100 && !r.intra_speeds_sm100.empty()) return r.intra_speeds_sm100;
  if (cc >= 90 && !r.intra_speeds_sm90.empty()) return r.intra_speeds_sm90;
  return r.intra_speeds;
}

int search_max_channels(const NcclRelease& r) { return r.max_channels / 2; }  // MAXCHANNELS/2

// The search's duplication of its rings at half their speed (ncclTopoDupChannels), for rings of BW GB/s.
bool duplicates(const NcclRelease& r, int cc, double bw, int channels) {
  switch (r.ring_duplication) {
    case NcclRingDuplication::never: return false;
    case NcclRingDuplication::from_25GBps: return bw >= 25;
    case NcclRingDuplication::hopper_from_50GBps: return (cc <= 80 && bw >= 25) || (cc <= 90 && bw >= 50);
    case NcclRingDuplication::not_thin_past_ampere: return bw >= 25 && !(cc > 80 && bw < 50 && channels > 4);
  }
  return false;
}

}  // namespace

double nccl_nvlink_GBps(const NcclRelease& r, int cc, int links) {
  double per_link = r.nvlink_GBps;
  if (cc < 70) per_link = 18;  // Pascal's, in every release
  else if (cc == 86) per_link = r.nvlink_sm86_GBps;
  else if (cc >= 100) per_link = r.nvlink_sm100_GBps;
  else if (cc >= 90) per_link = r.nvlink_sm90_GBps;
  return links * per_link;
}

NcclIntraSearch nccl_nvswitch_search(const NcclRelease& r, int cc, int links) {
  NcclIntraSearch found;
  // Every channel's ring enters and leaves each GPU once: SPEED of the GPU's NVLink bandwidth each way.
  const double total = nccl_nvlink_GBps(r, cc, links);
  const std::span<const float> speeds = intra_speeds(r, cc);
  const int max_channels = search_max_channels(r);
  std::size_t index = 0;
  while (index + 1 < speeds.size() && speeds[index] > total) ++index;
  double best = 0;
  for (; index < speeds.size(); ++index) {
    const double speed = speeds[index];
    if (best > 0 && speed / found.bandwidth_GBps <= 0.49) break;  // below half the best speed
    const int channels = std::min(max_channels, static_cast<int>(std::floor(total / speed + 1e-9)));
    if (channels * speed > best) best = channels * speed, found = {channels, speed};
    if (channels * speed >= total || channels == max_channels) break;
  }
  // The search's duplication of its rings (ncclTopoDupChannels).
  const double bw = found.bandwidth_GBps;
  if (duplicates(r, cc, bw, found.channels)) {
    const int doubled = std::min(2 * found.channels, max_channels);
    found.bandwidth_GBps /= (doubled + found.channels - 1) / found.channels;
    found.channels = doubled;
  }
  return found;
}

NcclIntraSearch nccl_nvls_search(const NcclRelease& r, int cc, int links, int gpus) {
  const double total = nccl_nvlink_GBps(r, cc, links);
  const int heads = std::min(gpus, r.nvls_max_arity);
  for (const float speed : intra_speeds(r, cc))
    if ((gpus + 1) * static_cast<double>(speed) <= total + 1e-9) return {heads, speed};
  return {heads, intra_speeds(r, cc).back()};
}

}  // namespace ringsim
