#include "nccl_run_facts.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ringsim {

std::optional<int> NcclRunFacts::highest_device() const {
  std::optional<int> highest;
  for (const auto& hop : network_hops) highest = std::max(highest.value_or(0), hop.device);
  return highest;
}

bool NcclRunFacts::any_gdr() const {
  return std::any_of(network_hops.begin(), network_hops.end(), [](const NcclNetworkHop& hop) { return hop.gdr; });
}

bool NcclRunFacts::ofi_over_cxi() const {
  return ofi_provider == "cxi" || std::any_of(nics.begin(), nics.end(), [](const std::string& nic) { return nic.starts_with("cxi"); });
}

std::string NcclRunFacts::describe() const {
  std::vector<std::string> parts;
  if (channels) parts.push_back(fmt::format("{} channel{}", *channels, *channels == 1 ? "" : "s"));
  if (!network_hops.empty()) {
    std::set<int> devices;
    for (const auto& hop : network_hops) devices.insert(hop.device);
    parts.push_back(fmt::format("NET/{} NIC{} {}{}", network_hops.front().transport, devices.size() == 1 ? "" : "s",
                                fmt::join(devices, ","), any_gdr() ? " with GDRDMA" : ""));
  } else if (!network.empty()) {
    parts.push_back("network " + network);
  }
  if (!trees.empty()) parts.push_back("trees");
  if (algorithm) parts.push_back("NCCL_ALGO=" + *algorithm);
  if (protocol) parts.push_back("NCCL_PROTO=" + *protocol);
  if (min_channels) parts.push_back(fmt::format("NCCL_MIN_NCHANNELS={}", *min_channels));
  if (max_channels) parts.push_back(fmt::format("NCCL_MAX_NCHANNELS={}", *max_channels));
  if (net_latency_us) parts.push_back(fmt::format("network plugin latency {} us", *net_latency_us));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace ringsim
