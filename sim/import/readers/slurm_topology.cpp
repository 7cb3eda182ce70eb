// Slurm's topology.conf (topology/tree): "SwitchName=s1 Nodes=node[01-16]" for a leaf switch and its
// nodes, "SwitchName=s0 Switches=s[1-4]" for a switch above others; "#" comments; keys in any case.
// `scontrol show topology` prints the same lines with Level= and LinkSpeed=, and an upper switch's
// Nodes= listing every node below it: a switch with Switches= is never a leaf, whatever its Nodes=.
#include "../hostlist.h"
#include "../print_readers.h"

#include "../../common/input_error.h"
#include "../../validate/text_table.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>

namespace ringsim {
namespace {

constexpr std::size_t kMaxNames = 100000;  // a topology's nodes at most (docs/topology-format.md, "count")

struct SwitchLine {
  std::string name;
  std::vector<std::string> nodes;
  std::vector<std::string> switches;
  int line = 0;
};

std::string lowercase(std::string_view s) {
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::vector<std::string> hosts_of(std::string_view value, const std::string& file, int line) {
  std::string why;
  auto hosts = expand_hostlist(value, why);
  if (!hosts) throw InputError(fmt::format("{}:{}: {}", file, line, why));
  return *hosts;
}

SwitchLine read_switch_line(std::string_view text, const std::string& file, int line) {
  SwitchLine entry;
  entry.line = line;
  for (const std::string_view word : split_words(text)) {
    const auto equals = word.find('=');
    const std::string key = lowercase(word.substr(0, equals));
    const std::string_view value = equals == std::string_view::npos ? std::string_view() : word.substr(equals + 1);
    if (equals == std::string_view::npos || value.empty())
      throw InputError(fmt::format("{}:{}: expected KEY=VALUE such as SwitchName=s1, Nodes=node[01-16] or Switches=s[1-4], found \"{}\"", file, line, word));
    if (key == "switchname") entry.name = std::string(value);
    else if (key == "nodes") entry.nodes = hosts_of(value, file, line);
    else if (key == "switches") entry.switches = hosts_of(value, file, line);
    else if (key != "linkspeed" && key != "level")
      throw InputError(fmt::format("{}:{}: expected SwitchName=, Nodes=, Switches=, LinkSpeed= or Level=, found \"{}\"", file, line, word));
  }
  if (entry.name.empty()) throw InputError(fmt::format("{}:{}: expected SwitchName=NAME first on a switch's line", file, line));
  if (entry.nodes.empty() && entry.switches.empty())
    throw InputError(fmt::format("{}:{}: expected Nodes= or Switches= for switch {}", file, line, entry.name));
  return entry;
}

// Every Switches= name must be a switch of the file, and every node under one leaf only.
void check_switches(const std::vector<SwitchLine>& lines, const std::string& file) {
  std::map<std::string, int> switch_lines, node_lines;
  for (const auto& entry : lines)
    if (!switch_lines.emplace(entry.name, entry.line).second)
      throw InputError(fmt::format("{}:{}: switch {} is named twice (first at line {})", file, entry.line, entry.name, switch_lines[entry.name]));
  for (const auto& entry : lines) {
    for (const auto& child : entry.switches)
      if (!switch_lines.contains(child))
        throw InputError(fmt::format("{}:{}: expected Switches= to name switches of this file, found {}", file, entry.line, child));
    if (!entry.switches.empty()) continue;  // an upper switch: its Nodes= are its leaves'
    for (const auto& node : entry.nodes)
      if (const auto [it, fresh] = node_lines.emplace(node, entry.line); !fresh)
        throw InputError(fmt::format("{}:{}: node {} is under two leaf switches (also line {})", file, entry.line, node, it->second));
  }
}

}  // namespace

bool detect_slurm_topology(std::string_view text) {
  for (const auto& [number, line] : split_lines(text)) {
    const auto words = split_words(line);
    if (words.empty() || words[0].starts_with('#')) continue;
    return lowercase(words[0]).starts_with("switchname=");
  }
  return false;
}

PrintFacts read_slurm_topology(std::string_view text, const std::string& file) {
  std::vector<SwitchLine> lines;
  std::size_t names = 0;
  for (const auto& [number, line] : split_lines(text)) {
    const std::string_view content = line.substr(0, line.find('#'));
    if (split_words(content).empty()) continue;
    lines.push_back(read_switch_line(content, file, number));
    names += lines.back().nodes.size() + lines.back().switches.size();
    if (names > kMaxNames) throw InputError(fmt::format("{}:{}: expected at most {} nodes and switches in all", file, number, kMaxNames));
  }
  if (lines.empty()) throw InputError(fmt::format("{}:1: expected SwitchName=... lines, found none", file));
  check_switches(lines, file);
  PrintFacts facts;
  facts.file = file;
  facts.kind = "slurm-topology";
  std::vector<LeafSwitch> leaves;
  int nodes = 0, first_leaf_line = 0;
  for (const auto& entry : lines) {
    if (entry.nodes.empty() || !entry.switches.empty()) continue;
    leaves.push_back({entry.name, static_cast<int>(entry.nodes.size())});
    nodes += static_cast<int>(entry.nodes.size());
    if (first_leaf_line == 0) first_leaf_line = entry.line;
  }
  if (leaves.empty()) throw InputError(fmt::format("{}:{}: expected a leaf switch with Nodes=, found only Switches=", file, lines.front().line));
  facts.nodes = Sourced<int>{nodes, fmt::format("{}:{}", file, first_leaf_line)};
  facts.leaf_switches = Sourced<std::vector<LeafSwitch>>{leaves, fmt::format("{}:{}", file, first_leaf_line)};
  if (leaves.size() > 1 && std::none_of(lines.begin(), lines.end(), [](const SwitchLine& e) { return !e.switches.empty(); }))
    facts.notes.push_back(fmt::format("{}: no switch joins the leaf switches; they are joined by a non-blocking spine", file));
  return facts;
}

}  // namespace ringsim
