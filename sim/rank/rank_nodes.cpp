#include "rank_nodes.h"

#include <charconv>

namespace ringsim {
namespace {

bool parse_index(std::string_view text, int& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && value >= 0;
}

}  // namespace

std::string node_list_text(const std::vector<int>& node_of_rank) {
  std::string text;
  for (std::size_t i = 0; i < node_of_rank.size();) {
    const int node = node_of_rank[i];
    std::size_t same = 1, ascending = 1;
    while (i + same < node_of_rank.size() && node_of_rank[i + same] == node) ++same;
    while (i + ascending < node_of_rank.size() && node_of_rank[i + ascending] == node + static_cast<int>(ascending))
      ++ascending;
    if (!text.empty()) text += ',';
    text += std::to_string(node);
    if (same > 1) {
      text += 'x' + std::to_string(same);
      i += same;
    } else if (ascending > 2) {  // "0-2" is shorter than "0,1,2"; "0-1" saves nothing over "0,1"
      text += '-' + std::to_string(node + static_cast<int>(ascending) - 1);
      i += ascending;
    } else {
      ++i;
    }
  }
  return text;
}

std::string parse_node_list(std::string_view text, std::size_t max_ranks, std::vector<int>& node_of_rank) {
  node_of_rank.clear();
  const std::string bad_item = "--nodes takes NODE, NODExCOUNT or FIRST-LAST items, comma-separated";
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const std::string_view item = text.substr(from, comma - from);
    from = comma + 1;
    int node = 0, count = 1, last = 0;
    if (const std::size_t x = item.find('x'); x != std::string_view::npos) {
      if (!parse_index(item.substr(0, x), node) || !parse_index(item.substr(x + 1), count) || count < 1) return bad_item;
      last = node;
    } else if (const std::size_t dash = item.find('-'); dash != std::string_view::npos) {
      if (!parse_index(item.substr(0, dash), node) || !parse_index(item.substr(dash + 1), last) || last < node)
        return bad_item;
    } else {
      if (!parse_index(item, node)) return bad_item;
      last = node;
    }
    const std::size_t ranks = static_cast<std::size_t>(last - node + 1) * static_cast<std::size_t>(count);
    if (ranks > max_ranks - node_of_rank.size())
      return "--nodes lists more ranks than the " + std::to_string(max_ranks) + " that run";
    for (int n = node; n <= last; ++n) node_of_rank.insert(node_of_rank.end(), static_cast<std::size_t>(count), n);
  }
  return "";
}

std::vector<std::vector<int>> ranks_of_nodes(int size, const std::vector<int>& node_of_rank) {
  // Node indices are small and non-negative (parse_node_list): a table from index to group keeps this
  // linear in the ranks, which every rank runs at start-up.
  std::vector<int> group_of_node;
  std::vector<std::vector<int>> members;
  for (int rank = 0; rank < size; ++rank) {
    const auto id = static_cast<std::size_t>(node_of_rank.empty() ? rank : node_of_rank[static_cast<std::size_t>(rank)]);
    if (id >= group_of_node.size()) group_of_node.resize(id + 1, -1);
    if (group_of_node[id] < 0) {
      group_of_node[id] = static_cast<int>(members.size());
      members.emplace_back();
    }
    members[static_cast<std::size_t>(group_of_node[id])].push_back(rank);
  }
  return members;
}

}  // namespace ringsim
