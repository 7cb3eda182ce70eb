#include "log_facts_on_topology.h"

#include "../common/units.h"
#include "../validate/text_table.h"
#include "fact_merge.h"

#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <optional>

namespace ringsim {
namespace {

// One fact of the log as a node group's key would state it.
struct KeyFact {
  std::vector<std::string> key;  // {"nics"}, {"nic", "bandwidth"}
  nlohmann::json value;
  std::string what;              // "4 NICs per node"
  std::string where;             // "trace.txt:12"
  // Whether a value the topology states agrees with the log's; unset: the fact is only filled.
  std::function<bool(const nlohmann::json&)> agrees;
};

// "trace.txt:12: NET/IB : Using [0]mlx5_0:1/IB ..." for a fact read at WHERE ("trace.txt:12").
std::string quoted(const std::string& where, const std::vector<TextLine>& lines) {
  const auto colon = where.rfind(':');
  const auto number = colon == std::string::npos ? std::nullopt : parse_count(std::string_view(where).substr(colon + 1));
  if (!number || *number < 1 || *number > lines.size()) return where;
  std::string_view text = lines[*number - 1].text;
  if (const auto info = text.find("NCCL INFO "); info != std::string_view::npos) text.remove_prefix(info + 10);
  constexpr std::size_t kShown = 60;
  return fmt::format("{}: {}{}", where, text.substr(0, kShown), text.size() > kShown ? " ..." : "");
}

// The NIC count is a lower bound where the log lists no NIC and the hops' highest index gave it: the
// reader then names them "efa0", "cxi0", "net0" (aws-ofi-nccl: a run on one GPU per node uses NIC 0 only).
bool nics_named_by_hops(const PrintFacts& log) {
  if (!log.used_nics || log.used_nics->value.empty()) return false;
  const std::string& first = log.used_nics->value.front();
  return first == "efa0" || first == "cxi0" || first == "net0";
}

std::vector<KeyFact> key_facts(const MergedNode& node, const PrintFacts& log) {
  std::vector<KeyFact> facts;
  if (node.gpus) {
    const int gpus = node.gpus->value;
    facts.push_back({{"gpus"}, gpus, fmt::format("{} GPU{} per node", gpus, gpus == 1 ? "" : "s"), node.gpus->where,
                     [gpus](const nlohmann::json& stated) { return stated.is_number_integer() && stated.get<int>() >= gpus; }});
  }
  if (node.used_nics) {
    const int nics = static_cast<int>(node.used_nics->value.size());
    const bool lower_bound = nics_named_by_hops(log);
    facts.push_back({{"nics"}, nics, fmt::format("{} NIC{} per node", nics, nics == 1 ? "" : "s"), node.used_nics->where,
                     [nics, lower_bound](const nlohmann::json& stated) {
                       return stated.is_number_integer() && (lower_bound ? stated.get<int>() >= nics : stated.get<int>() == nics);
                     }});
  }
  if (node.transport) {
    const std::string name(nic_transport_name(node.transport->value));
    facts.push_back({{"nic_transport"}, name, "NIC transport " + name, node.transport->where, {}});
  }
  if (node.nic_rate) {
    const double rate_Gbps = node.nic_rate->value;
    facts.push_back({{"nic", "bandwidth"}, fmt::format("{:g}Gbps", rate_Gbps), fmt::format("NICs of {:g} Gbit/s", rate_Gbps),
                     node.nic_rate->where, [rate_Gbps](const nlohmann::json& stated) {
                       const auto bandwidth = stated.is_string() ? parse_bandwidth(stated.get<std::string>()) : std::nullopt;
                       return bandwidth && std::abs(*bandwidth * 8 / 1e9 / rate_Gbps - 1) <= 0.01;
                     }});
  }
  if (node.gdr)
    facts.push_back({{"gdr"}, node.gdr->value, node.gdr->value ? "GPUDirect RDMA" : "no GPUDirect RDMA", node.gdr->where, {}});
  if (node.fabric && node.fabric->value != GpuFabric::pcie)
    facts.push_back({{"intra", "kind"}, "nvlink",
                     node.fabric->value == GpuFabric::nvswitch ? "GPUs on NVSwitch (NVLS)" : "GPUs on NVLink (P2P read)",
                     node.fabric->where, [](const nlohmann::json& stated) { return stated == "nvlink"; }});
  return facts;
}

// The value the topology states at KEY under GROUP, or null.
const nlohmann::json* stated_value(const nlohmann::json& group, const std::vector<std::string>& key) {
  const nlohmann::json* at = &group;
  for (const std::string& part : key) {
    if (!at->is_object() || !at->contains(part)) return nullptr;
    at = &(*at)[part];
  }
  return at;
}

// Sets KEY under GROUP, unless a part on the way is not an object (the loader then names it).
bool fill(nlohmann::json& group, const std::vector<std::string>& key, const nlohmann::json& value) {
  nlohmann::json* at = &group;
  for (std::size_t i = 0; i + 1 < key.size(); ++i) {
    if (!at->contains(key[i])) (*at)[key[i]] = nlohmann::json::object();
    at = &(*at)[key[i]];
    if (!at->is_object()) return false;
  }
  (*at)[key.back()] = value;
  return true;
}

// Whether FACT may be filled into GROUP: the format holds at most a NIC per GPU.
bool fits(const KeyFact& fact, const nlohmann::json& group) {
  if (fact.key.front() != "nics") return true;
  const nlohmann::json* gpus = stated_value(group, {"gpus"});
  return gpus && gpus->is_number_integer() && gpus->get<int>() >= fact.value.get<int>();
}

}  // namespace

LogFactsOnTopology log_facts_on_topology(const nlohmann::json& topology, const std::string& topology_file, const PrintFacts& log,
                                         std::string_view log_text) {
  LogFactsOnTopology result{topology, {}, {}};
  std::vector<std::string> disagreements;  // within the log itself: fact_merge's, not the topology's
  const MergedNode node = merge_facts({log}, disagreements);
  const std::vector<TextLine> lines = split_lines(log_text);
  if (!result.topology.is_object() || !result.topology.contains("racks") || !result.topology["racks"].is_array()) return result;
  nlohmann::json& racks = result.topology["racks"];
  for (const KeyFact& fact : key_facts(node, log)) {
    bool filled = false;
    for (std::size_t r = 0; r < racks.size(); ++r) {
      if (!racks[r].is_object() || !racks[r].contains("nodes") || !racks[r]["nodes"].is_array()) continue;
      nlohmann::json& groups = racks[r]["nodes"];
      for (std::size_t g = 0; g < groups.size(); ++g) {
        nlohmann::json& group = groups[g];
        if (!group.is_object()) continue;
        if (const nlohmann::json* stated = stated_value(group, fact.key)) {
          if (fact.agrees && !fact.agrees(*stated))
            result.warnings.push_back(fmt::format("{}: /racks/{}/nodes/{}/{} is {}, but the log says {} ({})", topology_file, r, g,
                                                  fmt::join(fact.key, "/"), stated->dump(), fact.what, quoted(fact.where, lines)));
        } else if (fits(fact, group) && fill(group, fact.key, fact.value)) {
          filled = true;
        }
      }
    }
    if (filled)
      result.filled.push_back(fmt::format("{} (\"{}\": {}; {})", fact.what, fmt::join(fact.key, "/"), fact.value.dump(), quoted(fact.where, lines)));
  }
  return result;
}

}  // namespace ringsim
