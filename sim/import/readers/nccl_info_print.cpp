// NCCL's INFO lines (NCCL_DEBUG=INFO) as a print of the nodes: the NICs NCCL uses and their link layer
// ("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE"), their speed ("NET/IB: [0] mlx5_0:... speed=100000"),
// EFA ("NET/OFI Selected Provider is efa (found 4 nics)"), nodes and GPUs per node ("nNodes 2 localRanks
// 8"), NVSwitch (NVLS channels), a pair of GPUs on NVLink ("via P2P/.../read"), GPUDirect RDMA and which
// NIC each GPU's traffic takes (the hops "via NET/IB/2/GDRDMA" each rank prints, its GPU in the line's
// "[DEV]"). The lines NCCL shares with validate are read by sim/validate/readers/nccl_info_lines.
#include "../print_readers.h"

#include "../../common/input_error.h"
#include "../../validate/readers/nccl_info_lines.h"
#include "../../validate/readers/nccl_tests_header.h"
#include "../../validate/readers/nccl_tests_log.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

constexpr std::string_view kMarker = " NCCL INFO ";

// "[1,0]<stdout>:host:25:25 [3] NCCL INFO ...": host and GPU device of the printing rank.
struct LinePrefix {
  std::string host;
  int device = -1;
};

std::optional<LinePrefix> line_prefix(std::string_view line) {
  const auto marker = line.find(kMarker);
  if (marker == std::string_view::npos) return std::nullopt;
  const auto words = split_words(line.substr(0, marker));
  if (words.size() < 2 || !words.back().starts_with('[') || !words.back().ends_with(']')) return std::nullopt;
  const auto device = parse_count(words.back().substr(1, words.back().size() - 2));
  std::string_view who = words[words.size() - 2];
  if (const auto tag = who.rfind(">:"); tag != std::string_view::npos) who.remove_prefix(tag + 2);
  if (!device || *device > 4096 || who.empty()) return std::nullopt;
  return LinePrefix{std::string(who.substr(0, who.find(':'))), static_cast<int>(*device)};
}

// What the lines say beyond validate's facts.
struct InfoReading {
  std::map<std::string, NicTransport> layers;   // NIC -> "/IB" or "/RoCE"
  std::map<std::string, double> speeds_Gbps;    // NIC -> speed=
  int nics_line = 0;
  std::optional<int> efa_nics;                  // "found 4 nics"
  int efa_line = 0;
  std::optional<Sourced<int>> nodes, local_ranks;
  std::optional<Sourced<bool>> nvls;
  // A hop inside the node "via P2P/.../read": NCCL reads from its peer's memory only over NVLink
  // (ncclTopoCheckP2p enables P2P read for NVLink paths between Ampere GPUs).
  std::optional<Sourced<bool>> p2p_read;
  std::set<std::string> hosts;
  std::map<std::string, std::set<int>> devices_of_host;
  int first_info_line = 0;
};

// "[0]mlx5_0:1/RoCE" -> mlx5_0, RoCE.
void read_using_word(std::string_view word, InfoReading& reading) {
  const auto close = word.find(']');
  const auto slash = word.rfind('/');
  if (!word.starts_with('[') || close == std::string_view::npos || slash == std::string_view::npos || slash < close) return;
  const std::string_view nic = word.substr(close + 1, std::min(word.find(':', close), slash) - close - 1);
  const std::string_view layer = word.substr(slash + 1);
  if (layer == "IB") reading.layers[std::string(nic)] = NicTransport::ib;
  else if (layer == "RoCE") reading.layers[std::string(nic)] = NicTransport::roce;
}

std::optional<int> number_after(const std::vector<std::string_view>& words, std::string_view key) {
  const auto it = std::find(words.begin(), words.end(), key);
  if (it == words.end() || it + 1 == words.end()) return std::nullopt;
  const auto count = parse_count(*(it + 1));
  return count && *count <= 1'000'000 ? std::optional(static_cast<int>(*count)) : std::nullopt;
}

void read_info_body(std::string_view body, int number, const std::string& file, InfoReading& reading) {
  const auto words = split_words(body);
  if (words.empty()) return;
  const std::string at = fmt::format("{}:{}", file, number);
  if (words[0].starts_with("NET/IB") && body.find("Using [") != std::string_view::npos) {
    for (const auto word : words) read_using_word(word, reading);
    if (reading.nics_line == 0) reading.nics_line = number;
  } else if (words[0] == "NET/IB:" && words.size() > 2 && words[1].starts_with('[')) {
    const std::string nic(words[2].substr(0, words[2].find(':')));
    for (const auto word : words)
      if (word.starts_with("speed="))
        if (const auto speed = parse_count(word.substr(6)); speed && *speed <= 100'000'000) reading.speeds_Gbps[nic] = *speed / 1000.0;
  } else if (body.starts_with("NET/OFI Selected Provider is efa")) {
    if (const auto found = number_after(words, "(found"); found && !reading.efa_nics) reading.efa_nics = *found, reading.efa_line = number;
    if (reading.efa_line == 0) reading.efa_line = number;
  }
  // Counts a topology can hold (1 to 100000 nodes, 1 to 4096 GPUs a node); others are not facts.
  if (const auto nodes = number_after(words, "nNodes"); nodes && *nodes >= 1 && *nodes <= 100000 && !reading.nodes)
    reading.nodes = Sourced<int>{*nodes, at};
  if (const auto local = number_after(words, "localRanks"); local && *local >= 1 && *local <= 4096 && !reading.local_ranks)
    reading.local_ranks = Sourced<int>{*local, at};
  if (const auto via = body.find(" via P2P/"); via != std::string_view::npos && body.ends_with("/read") && !reading.p2p_read)
    reading.p2p_read = Sourced<bool>{true, at};
  if (body.starts_with("NVLS multicast support is available") && !reading.nvls) reading.nvls = Sourced<bool>{true, at};
  if (const auto nvls = std::find(words.begin(), words.end(), "nvls"); nvls != words.end() && nvls != words.begin() && !reading.nvls)
    if (const auto channels = parse_count(*(nvls - 1)); channels && nvls + 1 != words.end() && nvls[1].starts_with("channels"))
      reading.nvls = Sourced<bool>{*channels > 0, at};
}

// Each GPU's NIC from the hops between nodes: the NIC the printing rank's GPU sent or received through
// most often. Stated when every GPU of the first host has one.
void read_hop_affinity(const NcclRunFacts& run, const std::vector<TextLine>& lines, const std::string& file, PrintFacts& facts, int gpus) {
  std::map<int, std::map<int, int>> counts;  // device -> NIC -> hops
  std::string host;
  int first_line = 0;
  for (const NcclNetworkHop& hop : run.network_hops) {
    const auto prefix = line_prefix(lines[static_cast<std::size_t>(hop.line - 1)].text);
    if (!prefix) continue;
    if (host.empty()) host = prefix->host, first_line = hop.line;
    if (prefix->host == host) ++counts[prefix->device][hop.device];
  }
  if (counts.empty() || static_cast<int>(counts.size()) != gpus || counts.rbegin()->first != gpus - 1) {
    if (!counts.empty())
      facts.notes.push_back(fmt::format("{}: the hops between nodes show the NIC of {} of {} GPUs; the others' is left to other prints",
                                        file, counts.size(), gpus));
    return;
  }
  std::vector<int> affinity;
  for (const auto& [device, nics] : counts)
    affinity.push_back(std::max_element(nics.begin(), nics.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first);
  const int named = facts.used_nics ? static_cast<int>(facts.used_nics->value.size()) : 0;
  if (*std::max_element(affinity.begin(), affinity.end()) >= named) {
    facts.notes.push_back(fmt::format("{}: the hops between nodes name NIC indices beyond the {} NICs NCCL lists; each GPU's NIC is "
                                      "left to other prints", file, named));
    return;
  }
  facts.nic_affinity = Sourced<std::vector<int>>{affinity, fmt::format("{}:{}", file, first_line)};
}

void read_nic_facts(const NcclRunFacts& run, const InfoReading& reading, const std::string& file, PrintFacts& facts) {
  std::vector<std::string> names(run.nics.begin(), run.nics.end());
  std::optional<NicTransport> transport;
  int line = reading.nics_line != 0 ? reading.nics_line : reading.efa_line;
  if (run.network == "Socket") transport = NicTransport::tcp;
  if (reading.efa_line != 0 || run.network.find("Libfabric") != std::string::npos) transport = NicTransport::efa;
  if (run.ofi_over_cxi()) transport = NicTransport::cxi, line = line != 0 ? line : run.ofi_provider_line;
  // A plugin that lists no NIC by name (aws-ofi-nccl): as many as the hops' highest index says.
  if (names.empty() && run.highest_device()) {
    for (int n = 0; n <= *run.highest_device(); ++n) names.push_back(fmt::format("{}{}", transport == NicTransport::efa ? "efa" : transport == NicTransport::cxi ? "cxi" : "net", n));
    if (line == 0) line = run.network_hops.front().line;
  }
  if (names.empty()) return;
  if (reading.efa_nics && *reading.efa_nics != static_cast<int>(names.size()))
    facts.notes.push_back(fmt::format("{}:{}: the plugin found {} EFA NICs and NCCL uses {} devices, each a group of them", file,
                                      reading.efa_line, *reading.efa_nics, names.size()));
  for (const auto& name : names) {
    NicFact nic;
    nic.name = name;
    nic.where = fmt::format("{}:{}", file, line);
    if (const auto layer = reading.layers.find(name); layer != reading.layers.end()) nic.transport = layer->second;
    else nic.transport = transport;
    if (const auto speed = reading.speeds_Gbps.find(name); speed != reading.speeds_Gbps.end()) nic.rate_Gbps = speed->second;
    facts.nics.push_back(nic);
  }
  facts.used_nics = Sourced<std::vector<std::string>>{names, fmt::format("{}:{}", file, line)};
}

// nccl-tests' header, when the log holds one ("#  Rank  0 ... on HOST device  0 [0x10] A100-SXM4-40GB"):
// the GPUs' model, and the GPUs per node and nodes where NCCL's own lines did not give them.
void read_run_header(std::string_view text, const std::string& file, PrintFacts& facts) {
  const NcclTestsLog log = clean_nccl_tests_log(text);  // without launchers' prefixes ("[1,0]<stdout>:")
  const std::optional<MeasuredRun> run = read_nccl_tests_header(log.text_lines(0, log.lines.size()), file);
  if (!run || run->ranks.empty()) return;
  const MeasuredRank& first = run->ranks.front();
  const std::string at = fmt::format("{}:{}", file, first.line);
  if (!first.gpu.empty()) facts.gpu_model = Sourced<std::string>{first.gpu, at};
  std::set<std::string> hosts;
  int on_first_host = 0;
  for (const MeasuredRank& rank : run->ranks) {
    hosts.insert(rank.host);
    if (rank.host == first.host) ++on_first_host;
  }
  if (!facts.gpus && on_first_host <= 4096) facts.gpus = Sourced<int>{on_first_host, at};
  if (!facts.nodes && hosts.size() <= 100000) facts.nodes = Sourced<int>{static_cast<int>(hosts.size()), at};
}

}  // namespace

bool detect_nccl_info_print(std::string_view text) { return text.find(kMarker) != std::string_view::npos; }

PrintFacts read_nccl_info_print(std::string_view text, const std::string& file) {
  const std::vector<TextLine> lines = split_lines(text);
  const NcclRunFacts run = read_nccl_info_lines(lines);
  InfoReading reading;
  for (const auto& [number, line] : lines) {
    const auto at = line.find(kMarker);
    if (at == std::string_view::npos) continue;
    if (reading.first_info_line == 0) reading.first_info_line = number;
    if (const auto prefix = line_prefix(line)) reading.devices_of_host[prefix->host].insert(prefix->device);
    read_info_body(line.substr(at + kMarker.size()), number, file, reading);
  }
  PrintFacts facts;
  facts.file = file;
  facts.kind = "nccl-info";
  const std::string first = fmt::format("{}:{}", file, reading.first_info_line);
  facts.nodes = reading.nodes;
  if (!facts.nodes && !reading.devices_of_host.empty()) facts.nodes = Sourced<int>{static_cast<int>(reading.devices_of_host.size()), first};
  // GPUs per node: localRanks; else the ranks on one host of nccl-tests' header, or the devices the
  // INFO lines of one host name where they are more (a log may hold a single INFO line of rank 0).
  if (reading.local_ranks) facts.gpus = reading.local_ranks;
  read_run_header(text, file, facts);
  if (!reading.local_ranks && !reading.devices_of_host.empty()) {
    const int devices = static_cast<int>(reading.devices_of_host.begin()->second.size());
    if (!facts.gpus || devices > facts.gpus->value) facts.gpus = Sourced<int>{devices, first};
  }
  if (reading.nvls && reading.nvls->value) facts.fabric = Sourced<GpuFabric>{GpuFabric::nvswitch, reading.nvls->where};
  // Two GPUs that read each other's memory: an NVLink bridge (with more GPUs, NVLink alone does not
  // say whether through NVSwitch).
  if (!facts.fabric && reading.p2p_read && facts.gpus && facts.gpus->value == 2)
    facts.fabric = Sourced<GpuFabric>{GpuFabric::nvlink_mesh, reading.p2p_read->where};
  read_nic_facts(run, reading, file, facts);
  if (!run.network_hops.empty()) {
    const auto gdr = std::find_if(run.network_hops.begin(), run.network_hops.end(), [](const NcclNetworkHop& h) { return h.gdr; });
    const int line = gdr != run.network_hops.end() ? gdr->line : run.network_hops.front().line;
    facts.gdr = Sourced<bool>{run.any_gdr(), fmt::format("{}:{}", file, line)};
    if (facts.gpus) read_hop_affinity(run, lines, file, facts, facts.gpus->value);
  }
  if (!facts.gpus && facts.nics.empty() && !facts.gdr)
    throw InputError(fmt::format("{}:{}: expected NCCL INFO lines naming the node: \"HOST:PID:TID [DEV] NCCL INFO ...\", \"NET/IB : Using "
                                 "[0]mlx5_0:1/IB\", \"nNodes N localRanks N\" or hops \"via NET/...\"; found none",
                                 file, std::max(1, reading.first_info_line)));
  return facts;
}

}  // namespace ringsim
