// An NCCL case of a results JSON as the report shows it: what NCCL's model picks at the row's size,
// the resource that binds it (nccl_case_explanation.h), and its ring channels over the nodes and their
// NICs (nccl_rails.h), drawn as inline SVG: each node a box with its NICs along the bottom, every NIC of
// one index at the same place in every box (a rail), and each channel a line from the NIC it leaves a
// node through to the NIC it enters the next one through.
#pragma once

#include "../analysis/nccl_case_explanation.h"
#include "../platform/cluster_layout.h"

#include <string>
#include <vector>

namespace ringsim {

struct NcclChannelsCase {
  std::string choice;        // "Ring/Simple"
  NcclBinding binding;
  std::string description;   // "Ring/Simple; binds: NIC node0-nic0 up, 2 of 16 channels, bus 400.0 GB/s"
  int channels = 0;          // the ring channels drawn
  std::vector<NcclChannelNics> crossings;  // every ring channel at every node it crosses (none on one node)
  std::vector<std::vector<std::string>> nic_links;  // per topology node, its NICs' names
  std::string hot_nic;       // the binding NIC's name ("node0-nic0"), "" when no NIC binds
};

// The case of PLACEMENT running ALGORITHM (one of NCCL's) at BYTES under MODEL (with its nccl_facts).
// nullopt without NCCL's view of the platform.
std::optional<NcclChannelsCase> nccl_channels_case(const ModelSettings& model, const PlacementSpec& placement,
                                                   const std::string& algorithm, std::uint64_t bytes);

// The SVG element (WIDTH pixels wide) of CASE's channels over LAYOUT's nodes; ID makes marker ids
// unique on the page, COLOUR frames the nodes.
std::string nccl_channels_svg(const NcclChannelsCase& nccl, const ClusterLayout& layout, const std::string& id, int width,
                              const std::string& colour);

}  // namespace ringsim
