#include "nccl_info_lines.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

namespace ringsim {
namespace {

// "3" from "3" or "3[1]" (rank[device] in NCCL 2.5 on).
std::optional<int> rank_word(std::string_view word) {
  const auto count = parse_count(word.substr(0, word.find('[')));
  if (!count || *count > 1'000'000) return std::nullopt;
  return static_cast<int>(*count);
}

// "00" or "00/02" after "Channel"/"Ring": the channel and, when printed, the total.
struct ChannelWord {
  int channel;
  std::optional<int> total;
};

std::optional<ChannelWord> channel_word(std::string_view word) {
  const auto slash = word.find('/');
  const auto channel = parse_count(word.substr(0, slash));
  if (!channel || *channel > 1024) return std::nullopt;
  ChannelWord parsed{static_cast<int>(*channel), std::nullopt};
  if (slash != std::string_view::npos) {
    const auto total = parse_count(word.substr(slash + 1));
    if (!total || *total > 1024) return std::nullopt;
    parsed.total = static_cast<int>(*total);
  }
  return parsed;
}

// "NET/IB/2/GDRDMA", "NET/Socket/0", "NET/IB/0(1)/GDRDMA": transport, device, GDR.
std::optional<NcclNetworkHop> network_path(std::string_view path) {
  if (!path.starts_with("NET/")) return std::nullopt;
  path.remove_prefix(4);
  const auto slash = path.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  NcclNetworkHop hop;
  hop.transport = std::string(path.substr(0, slash));
  std::string_view rest = path.substr(slash + 1);
  std::size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  const auto device = parse_count(rest.substr(0, digits));
  if (!device || *device > 1024) return std::nullopt;
  hop.device = static_cast<int>(*device);
  hop.gdr = rest.find("/GDRDMA") != std::string_view::npos;
  return hop;
}

// WORDS after "NCCL INFO": a ring listing ("Channel 00/02 : 0 1 2 3"), a hop ("Ring 00 : 3 -> 4 [send]
// via NET/IB/2/GDRDMA"; "Channel 00/0 : 3[3] -> 4[0] [send] via ..."), or neither.
void read_channel_line(const std::vector<std::string_view>& words, int line, NcclRunFacts& facts) {
  if (words.size() < 4 || words[2] != ":") return;
  const auto channel = channel_word(words[1]);
  if (!channel) return;
  const auto arrow = std::find(words.begin(), words.end(), "->");
  if (arrow == words.end()) {
    if (words[0] != "Channel") return;
    std::vector<int> ring;
    for (auto it = words.begin() + 3; it != words.end(); ++it) {
      const auto rank = rank_word(*it);
      if (!rank) return;
      ring.push_back(*rank);
    }
    facts.rings[channel->channel] = ring;
    if (channel->total) facts.channels = std::max(facts.channels.value_or(0), *channel->total);
    return;
  }
  const auto via = std::find(arrow, words.end(), "via");
  if (arrow == words.begin() + 3 || arrow + 1 == words.end() || via == words.end() || via + 1 == words.end()) return;
  std::string path(*(via + 1));  // "NET/AWS Libfabric/0/GDRDMA": a transport's name may hold spaces
  for (auto it = via + 2; it != words.end(); ++it) path += " " + std::string(*it);
  auto hop = network_path(path);
  const auto from = rank_word(*(arrow - 1)), to = rank_word(*(arrow + 1));
  if (!hop || !from || !to) return;
  hop->channel = channel->channel;
  hop->from = *from;
  hop->to = *to;
  hop->send = std::find(arrow, via, "[receive]") == via;
  hop->line = line;
  facts.network_hops.push_back(*hop);
}

// VALUE as NCCL spells the name it matches in NAMES (case aside), or nullopt.
std::optional<std::string> one_of(std::string_view value, std::initializer_list<std::string_view> names) {
  for (const auto name : names)
    if (std::equal(value.begin(), value.end(), name.begin(), name.end(),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); }))
      return std::string(name);
  return std::nullopt;
}

std::optional<int> channel_count(std::string_view value) {
  const auto count = parse_count(value);
  return count && *count >= 1 && *count <= 1024 ? std::optional(static_cast<int>(*count)) : std::nullopt;
}

// "NCCL_ALGO=ring" on a line that is not NCCL's (a command line: "-x NCCL_ALGO=ring", "NCCL_ALGO=RING
// mpirun ...", "export NCCL_PROTO=Simple"): the environment the run was given, unless NCCL echoed it.
void read_command_settings(std::string_view line, int number, NcclRunFacts& facts) {
  for (std::string_view word : split_words(line)) {
    const auto equals = word.find('=');
    if (!word.starts_with("NCCL_") || equals == std::string_view::npos) continue;
    std::string name(word.substr(0, equals));
    std::string_view value = word.substr(equals + 1);
    while (!value.empty() && (value.front() == '"' || value.front() == '\'')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '"' || value.back() == '\'' || value.back() == ';')) value.remove_suffix(1);
    if (value.empty() || facts.environment.contains(name)) continue;
    facts.environment[name] = std::string(value);
    facts.environment_lines[name] = number;
  }
}

// The typed settings of the environment's raw values.
void read_forced_settings(NcclRunFacts& facts) {
  const auto& env = facts.environment;
  if (const auto it = env.find("NCCL_ALGO"); it != env.end())
    facts.algorithm = one_of(it->second, {"Ring", "Tree", "CollnetDirect", "CollnetChain", "NVLS", "NVLSTree", "PAT"});
  if (const auto it = env.find("NCCL_PROTO"); it != env.end()) facts.protocol = one_of(it->second, {"LL", "LL128", "Simple"});
  if (const auto it = env.find("NCCL_MIN_NCHANNELS"); it != env.end()) facts.min_channels = channel_count(it->second);
  if (const auto it = env.find("NCCL_MAX_NCHANNELS"); it != env.end()) facts.max_channels = channel_count(it->second);
}

// NCCL 2.4 lists its bootstrap's interface first ("NET/Socket : Using [0]ib0:10.0.0.19<0>"), then the
// network's NICs ("NET/IB : Using [0]mlx5_0:1/IB"): a later list of another network replaces a socket
// list, and the network named by it (not by "Using network").
struct NicListReading {
  bool socket_list = false;
  bool network_from_list = false;
};

// WORDS: "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:..." -> the NICs' names.
void read_nic_list(const std::vector<std::string_view>& words, NcclRunFacts& facts, NicListReading& list) {
  if (!facts.nics.empty() && !(list.socket_list && words[0] != "NET/Socket")) return;
  facts.nics.clear();
  if (list.network_from_list) facts.network.clear();
  list.socket_list = words[0] == "NET/Socket";
  for (auto it = words.begin() + 3; it != words.end() && !it->starts_with(';'); ++it) {
    if (!it->starts_with('[') || it->find(']') == std::string_view::npos) continue;
    const std::string_view nic = it->substr(it->find(']') + 1);
    const std::string_view name = nic.substr(0, std::min(nic.find(':'), nic.find('/')));
    if (!name.empty() && name.find(';') == std::string_view::npos) facts.nics.emplace_back(name);
    if (it->find(';') != std::string_view::npos) break;
  }
  if (facts.network.empty()) facts.network = std::string(words[0].substr(4)), list.network_from_list = true;
}

}  // namespace

NcclRunFacts read_nccl_info_lines(const std::vector<TextLine>& lines) {
  NcclRunFacts facts;
  NicListReading list;
  for (const auto& [number, line] : lines) {
    const auto at = line.find("NCCL INFO ");
    if (at == std::string_view::npos) {
      read_command_settings(line, number, facts);
      continue;
    }
    const std::string_view body = line.substr(at + 10);
    const auto words = split_words(body);
    if (words.empty()) continue;
    if (words[0] == "Channel" || words[0] == "Ring") {
      read_channel_line(words, number, facts);
    } else if (words.size() >= 7 && words[1] == "Internode" && words[2] == "latency" && words[3] == "set" && words[4] == "at" &&
               words[6] == "us" && !facts.net_latency_us) {
      // aws-ofi-nccl: "NET/OFI Internode latency set at 75.0 us", the latency it reports to NCCL.
      if (const auto us = parse_number(words[5]); us && *us >= 0 && *us < 1e6) {
        facts.net_latency_us = *us;
        facts.net_latency_line = number;
      }
    } else if (words.size() >= 5 && words[0] == "NET/OFI" && words[1] == "Selected" && (words[2] == "Provider" || words[2] == "provider") &&
               words[3] == "is" && facts.ofi_provider.empty()) {
      // aws-ofi-nccl: "NET/OFI Selected Provider is efa (found 4 nics)", "... is cxi, fabric is cxi".
      std::string_view provider = words[4];
      if (provider.ends_with(',')) provider.remove_suffix(1);
      facts.ofi_provider = std::string(provider);
      facts.ofi_provider_line = number;
    } else if (words[0] == "Trees") {
      facts.trees.emplace_back(body);
    } else if (words.size() >= 6 && words[1] == "set" && words[2] == "by" && words[3] == "environment" && words[4] == "to") {
      std::string_view value = words[5];
      if (value.size() > 1 && value.back() == '.') value.remove_suffix(1);  // "set by environment to 0." (2.2x)
      facts.environment[std::string(words[0])] = std::string(value);
      facts.environment_lines[std::string(words[0])] = number;
    } else if (words.size() >= 3 && words[0] == "Using" && words[1] == "network") {
      list.network_from_list = false;
      facts.network = std::string(words[2]);
      for (auto it = words.begin() + 3; it != words.end(); ++it) facts.network += " " + std::string(*it);
    } else if (words.size() >= 4 && words[0].starts_with("NET/") && words[1] == ":" && words[2] == "Using") {
      read_nic_list(words, facts, list);
    }
  }
  if (!facts.channels && !facts.rings.empty()) facts.channels = static_cast<int>(facts.rings.size());
  read_forced_settings(facts);
  return facts;
}

}  // namespace ringsim
