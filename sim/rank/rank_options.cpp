#include "rank_options.h"

#include "rank_nodes.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

namespace ringsim {
namespace {

template <typename T>
bool parse_number(std::string_view text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// A pair FIRST,SECOND of numbers from 0 to 1e6 (a per-slice time or rate inside and across nodes, or per protocol).
bool parse_pair(std::string_view text, double& first, double& second) {
  const std::size_t comma = text.find(',');
  return comma != std::string_view::npos && parse_number(text.substr(0, comma), first) && parse_number(text.substr(comma + 1), second) &&
         first >= 0 && second >= 0 && first <= 1e6 && second <= 1e6;
}

// --nccl-enqueue SPLIT_SIMPLE,SPLIT_LL,NVLS_TREE_CHUNK,NVLS_TREE_64K_FROM_4_NODES,NVLS_FIRST_HALVING: the
// release's rules (NcclEnqueueRules), flags 0 or 1, the chunk in bytes, the halving a count of chunks.
std::string parse_enqueue_rules(std::string_view value, NcclEnqueueRules& rules) {
  long long fields[5] = {};
  std::size_t from = 0;
  for (int i = 0; i < 5; ++i) {
    const std::size_t comma = i < 4 ? value.find(',', from) : value.size();
    if (comma == std::string_view::npos || !parse_number(value.substr(from, comma - from), fields[i])) fields[0] = -1;
    from = comma == std::string_view::npos ? value.size() : comma + 1;
  }
  const bool flags = fields[0] >= 0 && fields[0] <= 1 && fields[1] >= 0 && fields[1] <= 1 && fields[3] >= 0 && fields[3] <= 1;
  if (!flags || fields[2] < 4 || fields[2] > (1LL << 30) || fields[4] < 1 || fields[4] > 1024)
    return "--nccl-enqueue takes SPLIT_SIMPLE,SPLIT_LL,NVLS_TREE_CHUNK,NVLS_TREE_64K_FROM_4_NODES,NVLS_FIRST_HALVING, such as 1,1,524288,0,64";
  rules.tree_split_simple = fields[0] == 1;
  rules.tree_split_ll = fields[1] == 1;
  rules.nvls_tree_chunk = static_cast<std::uint64_t>(fields[2]);
  rules.nvls_tree_64k_from_4_nodes = fields[3] == 1;
  rules.nvls_first_halving = static_cast<int>(fields[4]);
  return "";
}

// The options that take two numbers: Simple's handshake (INTRA_US,NET_US, inside a node and across
// nodes), LL's and LL128's block rates (GB/s of data per channel's thread block; 0: unpaced) and
// nccl_tree's hops to another node under LL and LL128 (us).
std::string parse_nccl_pair(std::string_view flag, std::string_view value, NcclRankSettings& nccl) {
  double first = -1, second = -1;
  const bool read = parse_pair(value, first, second);
  if (flag == "--nccl-handshake") {
    if (!read) return "--nccl-handshake takes INTRA_US,NET_US, two microsecond counts such as 4.7,5.7";
    nccl.handshake_intra_s = first * 1e-6;
    nccl.handshake_net_s = second * 1e-6;
  } else if (flag == "--nccl-ll128-hops") {
    if (!read) return "--nccl-ll128-hops takes INTRA_US,NET_US, two microsecond counts such as 1.3,1.3";
    nccl.ll128_hop_intra_s = first * 1e-6;
    nccl.ll128_hop_net_s = second * 1e-6;
  } else if (flag == "--nccl-block-rates") {
    if (!read) return "--nccl-block-rates takes LL_GBPS,LL128_GBPS, two rates over all channels in GB/s such as 1.5,9.2";
    nccl.ll_bus_Bps = first * 1e9;
    nccl.ll128_bus_Bps = second * 1e9;
  } else if (flag == "--nccl-nvls") {
    if (!read || first <= 0 || first > 1) return "--nccl-nvls takes EFFICIENCY,LATENCY_US: NVLS's share of NVLink (0 to 1) and its latency, such as 0.85,25";
    nccl.nvls_efficiency = first;
    nccl.nvls_latency_s = second * 1e-6;
  } else {
    if (!read) return "--nccl-tree-hops takes LL_US,LL128_US, two microsecond counts such as 4.1,5";
    nccl.tree_hop_ll_s = first * 1e-6;
    nccl.tree_hop_ll128_s = second * 1e-6;
  }
  return "";
}

// --nccl-software US,...: NCCL's software cost of a call, per size, in seconds.
std::string parse_software_costs(std::string_view value, std::vector<double>& seconds) {
  seconds.clear();
  for (std::size_t from = 0; from <= value.size();) {
    const std::size_t comma = std::min(value.find(',', from), value.size());
    double us = -1;
    if (!parse_number(value.substr(from, comma - from), us) || us < 0)
      return "--nccl-software takes microsecond counts of 0 and above, comma-separated (one per size)";
    seconds.push_back(us * 1e-6);
    from = comma + 1;
  }
  return "";
}

// --nccl-p2p CHANNELS,PER_PEER,CHUNK_BYTES,BLOCK_GBPS[,chunks]: nccl_p2p's schedule (NcclP2pRun; "chunks":
// every chunk its own message).
std::string parse_p2p_run(std::string_view value, NcclP2pRun& run) {
  constexpr const char* kExpected =
      "--nccl-p2p takes CHANNELS,PER_PEER,CHUNK_BYTES,BLOCK_GBPS[,chunks]: powers of 2 up to 64 (PER_PEER at most CHANNELS), a chunk of at least 4096 bytes in multiples of 16, a rate in GB/s (0: unpaced), such as 16,2,131072,14";
  std::string_view fields[5];
  std::size_t from = 0, count = 0;
  while (count < 5 && from <= value.size()) {
    const std::size_t comma = std::min(value.find(',', from), value.size());
    fields[count++] = value.substr(from, comma - from);
    from = comma + 1;
  }
  if (from <= value.size() || count < 4 || (count == 5 && fields[4] != "chunks")) return kExpected;
  int channels = 0, per_peer = 0;
  std::uint64_t chunk = 0;
  double block_GBps = -1;
  const auto power_of_two = [](int x) { return x >= 1 && x <= 64 && (x & (x - 1)) == 0; };
  if (!parse_number(fields[0], channels) || !parse_number(fields[1], per_peer) || !parse_number(fields[2], chunk) ||
      !parse_number(fields[3], block_GBps) || !power_of_two(channels) || !power_of_two(per_peer) || per_peer > channels || chunk < 4096 ||
      chunk % 16 != 0 || chunk > (1u << 30) || block_GBps < 0 || block_GBps > 1e6)
    return kExpected;
  run = {channels, per_peer, chunk, block_GBps * 1e9, count == 5};
  return "";
}

// --nccl-channels, --nccl-buffsize, --nccl-protocols, --nccl-handshake, --nccl-ll128-hops, --nccl-block-rates, --nccl-tree-hops, --nccl-nvls, --nccl-algorithms, --nccl-software, --nccl-rails, --nccl-p2p: nccl_ring's (nccl_tree's, nccl's) schedule (sim/nccl/tuning/nccl_settings.h).
std::string parse_nccl_option(std::string_view flag, std::string_view value, int ranks, RankOptions& options) {
  if (flag == "--nccl-channels") {
    options.nccl_channels.clear();
    for (std::size_t from = 0; from <= value.size();) {
      const std::size_t comma = std::min(value.find(',', from), value.size());
      int channels = 0;
      if (!parse_number(value.substr(from, comma - from), channels) || channels < 1 || channels > 64)
        return "--nccl-channels takes integers from 1 to 64, comma-separated (one per size)";
      options.nccl_channels.push_back(channels);
      from = comma + 1;
    }
  } else if (flag == "--nccl-buffsize") {
    if (!parse_number(value, options.nccl.buffsize) || options.nccl.buffsize < 4096 || options.nccl.buffsize % 4096 != 0)
      return "--nccl-buffsize takes a byte count, a multiple of 4096";
  } else if (flag == "--nccl-protocols") {
    options.nccl_protocols.clear();
    for (std::size_t from = 0; from <= value.size();) {
      const std::size_t comma = std::min(value.find(',', from), value.size());
      const std::string_view name = value.substr(from, comma - from);
      if (name == "LL") options.nccl_protocols.push_back(NcclWire::ll);
      else if (name == "LL128") options.nccl_protocols.push_back(NcclWire::ll128);
      else if (name == "Simple") options.nccl_protocols.push_back(NcclWire::simple);
      else return "--nccl-protocols takes LL, LL128 or Simple, comma-separated (one per size)";
      from = comma + 1;
    }
  } else if (flag == "--nccl-handshake" || flag == "--nccl-ll128-hops" || flag == "--nccl-block-rates" || flag == "--nccl-tree-hops" || flag == "--nccl-nvls") {
    return parse_nccl_pair(flag, value, options.nccl);
  } else if (flag == "--nccl-enqueue") {
    return parse_enqueue_rules(value, options.nccl.rules);
  } else if (flag == "--nccl-p2p") {
    return parse_p2p_run(value, options.nccl.p2p);
  } else if (flag == "--nccl-algorithms") {
    options.nccl_algorithms.clear();
    for (std::size_t from = 0; from <= value.size();) {
      const std::size_t comma = std::min(value.find(',', from), value.size());
      const std::string_view name = value.substr(from, comma - from);
      const auto kind = std::find_if(kNcclAlgorithmKinds.begin(), kNcclAlgorithmKinds.end(),
                                     [&](NcclAlgorithmKind k) { return nccl_algorithm_name(k) == name; });
      if (kind == kNcclAlgorithmKinds.end())
        return "--nccl-algorithms takes Ring, Tree, NVLS, NVLSTree or PAT, comma-separated (one per size)";
      options.nccl_algorithms.push_back(*kind);
      from = comma + 1;
    }
  } else if (flag == "--nccl-software") {
    return parse_software_costs(value, options.nccl_software_s);
  } else if (flag == "--nccl-rails") {
    std::vector<int> listed;
    if (std::string error = parse_node_list(value, static_cast<std::size_t>(ranks), listed); !error.empty())
      return "--nccl-rails: " + error;
    if (listed.size() != static_cast<std::size_t>(ranks))
      return "--nccl-rails lists " + std::to_string(listed.size()) + " ranks, but " + std::to_string(ranks) + " run";
    options.nccl_rail_of_rank.clear();
    for (int entry : listed) options.nccl_rail_of_rank.push_back(entry - 1);
  } else {
    return "unknown option " + std::string(flag);
  }
  return "";
}

}  // namespace

std::string parse_rank_options(int argc, char** argv, int ranks, RankOptions& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) return "missing value after " + std::string(flag);
    const std::string_view value = argv[++i];
    if (flag == "--algorithm") {
      options.algorithm = value;
    } else if (flag == "--collective") {
      const std::optional<Collective> collective = find_collective(value);
      if (!collective) return "unknown collective " + std::string(value);
      options.collective = *collective;
    } else if (flag == "--sizes") {
      for (std::size_t from = 0; from <= value.size();) {
        std::size_t comma = std::min(value.find(',', from), value.size());
        std::uint64_t bytes = 0;
        if (!parse_number(value.substr(from, comma - from), bytes) || bytes % 4 != 0)
          return "--sizes takes byte counts that are multiples of 4, comma-separated";
        options.sizes.push_back(bytes);
        from = comma + 1;
      }
    } else if (flag == "--iterations") {
      if (!parse_number(value, options.iterations) || options.iterations < 1) return "--iterations takes an integer >= 1";
    } else if (flag == "--warmup") {
      if (!parse_number(value, options.warmup) || options.warmup < 0) return "--warmup takes an integer >= 0";
    } else if (flag == "--out") {
      options.out_file = value;
    } else if (flag == "--events") {
      options.events_file = value;
    } else if (flag == "--nodes") {
      if (std::string error = parse_node_list(value, static_cast<std::size_t>(ranks), options.node_of_rank); !error.empty())
        return error;
      if (options.node_of_rank.size() != static_cast<std::size_t>(ranks))
        return "--nodes lists " + std::to_string(options.node_of_rank.size()) + " ranks, but " + std::to_string(ranks) +
               " run";
    } else if (flag == "--progress") {
      options.progress_file = value;
    } else if (flag == "--count-messages") {
      options.count_messages_file = value;
    } else if (flag.starts_with("--nccl-")) {
      if (std::string error = parse_nccl_option(flag, value, ranks, options); !error.empty()) return error;
    } else if (flag == "--check-limit") {
      if (!parse_number(value, options.check_limit_bytes)) return "--check-limit takes a byte count";
    } else {
      return "unknown option " + std::string(flag);
    }
  }
  if (options.sizes.empty()) return "--sizes is required";
  if (options.out_file.empty()) return "--out is required";
  return "";
}

}  // namespace ringsim
