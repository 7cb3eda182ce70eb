#include "nccl_pat_costs.h"

#include "nccl_tree_costs.h"

namespace ringsim {

bool nccl_pat_possible(const NcclCase& c) {
  return c.release->time_model && c.release->pat_bus_factor > 0 && c.ranks >= 2 && c.nodes == c.ranks;
}

NcclPrediction nccl_pat_time(const NcclCase& c, std::uint64_t bytes) {
  const double algbw_Bps = c.search_channels * c.channel_bandwidth_Bps * c.release->pat_bus_factor;
  const double net_us = nccl_network_hop_us(c, nccl_tree_net_hop_us(*c.release, NcclProtocol::simple), NcclProtocol::simple);
  const double latency_us = 8.0 + nccl_log2i(c.nodes) * net_us / 3.5 + 2.8 * c.ranks;
  return nccl_prediction(NcclProtocol::simple, latency_us * 1e-6, algbw_Bps, bytes);
}

}  // namespace ringsim
