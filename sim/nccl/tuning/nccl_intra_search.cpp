#include "nccl_intra_search.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace ringsim {
namespace {

// search.cc's intra-node speed lists (GB/s per channel), fastest first.
constexpr float kSpeeds25[] = {24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};        // 2.5-2.6
constexpr float kSpeeds27[] = {42, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};    // 2.7-2.8
constexpr float kSpeeds29[] = {42, 30, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4f, 1.2f, 0.24f, 0.12f};  // 2.9-2.11
constexpr float kSpeeds212[] = {44, 30, 22, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};                             // 2.12-2.17
constexpr float kSpeeds218[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};                             // 2.18 on
constexpr float kSpeedsSm90_216[] = {66, 33, 24, 20, 15, 12, 6, 3};                                        // 2.16-2.17, Hopper
constexpr float kSpeedsSm90_218[] = {60, 40, 30, 24, 20, 15, 12, 6, 3};                                    // 2.18, Hopper
constexpr float kSpeedsSm90_219[] = {60, 50, 40, 30, 24, 20, 15, 12, 6, 3};                                // 2.19-2.20
constexpr float kSpeedsSm90_221[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};                            // 2.21 on
constexpr float kSpeedsSm100[] = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18};                             // 2.25 on, Blackwell

std::span<const float> intra_speeds(const NcclVersion& v, int cc) {
  if (!v.at_least(2, 7)) return kSpeeds25;
  if (!v.at_least(2, 9)) return kSpeeds27;
  if (!v.at_least(2, 12)) return kSpeeds29;
  if (!v.at_least(2, 18)) {
    if (cc >= 90 && v.at_least(2, 16)) return kSpeedsSm90_216;
    return kSpeeds212;
  }
  if (cc >= 100 && v.at_least(2, 25)) return kSpeedsSm100;
  if (cc < 90) return kSpeeds218;
  if (v.at_least(2, 21)) return kSpeedsSm90_221;
  if (v.at_least(2, 19)) return kSpeedsSm90_219;
  return kSpeedsSm90_218;
}

int search_max_channels(const NcclVersion& v) { return (v.at_least(2, 25) ? 64 : 32) / 2; }  // MAXCHANNELS/2

}  // namespace

double nccl_nvlink_GBps(const NcclVersion& v, int cc, int links) {
  double per_link = 0;
  if (cc < 70) per_link = 18;
  else if (!v.at_least(2, 12)) per_link = cc == 86 && v.at_least(2, 9) ? 12 : 21;  // VOLTA_NVLINK_WIDTH; SM86's from 2.9
  else if (cc == 86) per_link = 12;
  else if (!v.at_least(2, 18)) per_link = 22;
  else if (cc >= 100 && v.at_least(2, 25)) per_link = v.at_least(2, 28) ? 40.1 : 40;
  else if (cc >= 90 && v.at_least(2, 21)) per_link = 20.6;
  else per_link = 20;
  return links * per_link;
}

NcclIntraSearch nccl_nvswitch_search(const NcclVersion& v, int cc, int links) {
  NcclIntraSearch found;
  // Every channel's ring enters and leaves each GPU once: SPEED of the GPU's NVLink bandwidth each way.
  const double total = nccl_nvlink_GBps(v, cc, links);
  const std::span<const float> speeds = intra_speeds(v, cc);
  const int max_channels = search_max_channels(v);
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
  bool duplicate = v.at_least(2, 7) && bw >= 25;
  if (v.at_least(2, 16) && !v.at_least(2, 18)) duplicate = (cc <= 80 && bw >= 25) || (cc <= 90 && bw >= 50);
  if (v.at_least(2, 18)) duplicate = duplicate && !(cc > 80 && bw < 50 && found.channels > 4);
  if (duplicate) {
    const int doubled = std::min(2 * found.channels, max_channels);
    found.bandwidth_GBps /= (doubled + found.channels - 1) / found.channels;
    found.channels = doubled;
  }
  return found;
}

NcclIntraSearch nccl_nvls_search(const NcclVersion& v, int cc, int links, int gpus) {
  const double total = nccl_nvlink_GBps(v, cc, links);
  const int heads = std::min(gpus, v.at_least(2, 21) ? 32 : 8);  // NCCL_MAX_NVLS_ARITY
  for (const float speed : intra_speeds(v, cc))
    if ((gpus + 1) * static_cast<double>(speed) <= total + 1e-9) return {heads, speed};
  return {heads, intra_speeds(v, cc).back()};
}

}  // namespace ringsim
