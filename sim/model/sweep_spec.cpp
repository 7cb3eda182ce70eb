#include "sweep_spec.h"

#include "../common/input_error.h"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <map>
#include <vector>
#include <numeric>
#include <set>
#include <tuple>

namespace ringsim {
namespace {

// A generator past this many placements is a mistake (64 ranks on 16 nodes of 8 without symmetry
// yields billions); the error says so before anything is allocated for them.
constexpr std::size_t kMaxGenerated = 100000;

std::vector<RankOrder> read_orders(JsonObjectReader& reader) {
  const nlohmann::json* orders = reader.optional_value("orders");
  if (orders == nullptr) return {RankOrder::block};
  if (!orders->is_array() || orders->empty()) reader.fail("orders", "expected a non-empty array such as [\"block\", \"cyclic\"]");
  std::vector<RankOrder> parsed;
  for (std::size_t i = 0; i < orders->size(); ++i) {
    const auto& entry = (*orders)[i];
    auto order = entry.is_string() ? parse_rank_order(entry.get<std::string>()) : std::nullopt;
    if (!order)
      throw_input_error(reader.file(), reader.path_of("orders", i),
                        fmt::format("unknown order {}; expected \"block\", \"cyclic\" or \"optimized\"", describe_json(entry)));
    parsed.push_back(*order);
  }
  return parsed;
}

PlacementGenerator read_generator(const nlohmann::json& value, const std::string& file, const std::string& path) {
  JsonObjectReader reader(value, file, path);
  PlacementGenerator generator;
  if (auto ranks = reader.optional_int("every_placement", 1, 65536)) {
    generator.ranks = static_cast<int>(*ranks);
    generator.per_node = static_cast<int>(reader.optional_int("max_per_node", 1, 65536).value_or(0));
  } else {
    generator.kind = PlacementGenerator::Kind::every_subset;
    generator.nodes = static_cast<int>(*reader.optional_int("every_subset", 1, 65536));
    generator.per_node = static_cast<int>(reader.optional_int("ranks_per_node", 1, 65536).value_or(0));
  }
  generator.up_to_symmetry = reader.optional_bool("up_to_symmetry").value_or(true);
  generator.orders = read_orders(reader);
  reader.finish();
  return generator;
}

SweepPlacementEntry read_sweep_placement(const nlohmann::json& value, const std::string& file, const std::string& path) {
  const bool generator = value.is_object() && (value.contains("every_placement") || value.contains("every_subset"));
  if (value.is_object() && value.contains("every_placement") && value.contains("every_subset"))
    throw_input_error(file, path, "give either \"every_placement\" or \"every_subset\", not both");
  if (generator) return {read_generator(value, file, path), path};
  if (value.is_object() && !value.contains("ranks"))
    throw_input_error(file, path,
                      "expected \"4-3-1\", {\"ranks\": \"4-3-1\", \"order\": \"cyclic\"}, {\"every_placement\": 8} or "
                      "{\"every_subset\": 2, \"ranks_per_node\": 4}");
  return {read_placement(value, file, path), path};
}

std::vector<std::filesystem::path> read_topologies(JsonObjectReader& top, const std::filesystem::path& file) {
  const auto one = top.optional_string("topology");
  const nlohmann::json* many = top.optional_value("topologies");
  if (one.has_value() == (many != nullptr))
    top.fail("topology", "give exactly one of \"topology\": \"FILE\" and \"topologies\": [\"FILE\", ...]");
  if (one) return {file.parent_path() / *one};
  if (!many->is_array() || many->empty()) top.fail("topologies", "expected a non-empty array of topology files");
  std::vector<std::filesystem::path> paths;
  for (std::size_t i = 0; i < many->size(); ++i) {
    if (!(*many)[i].is_string())
      throw_input_error(top.file(), top.path_of("topologies", i), fmt::format("expected a file name, found {}", describe_json((*many)[i])));
    paths.push_back(file.parent_path() / (*many)[i].get<std::string>());
  }
  return paths;
}

// "model_axes": {"nic_bandwidth": ["1Gbps", "10Gbps"], "network": ["SMPI", "CM02"]}: every
// combination, keys in the object's (sorted) order, each merged over every base variant.
std::vector<ScenarioVariant> apply_model_axes(JsonObjectReader& top, std::vector<ScenarioVariant> bases) {
  const nlohmann::json* axes = top.optional_value("model_axes");
  if (axes == nullptr) return bases;
  if (!axes->is_object() || axes->empty())
    top.fail("model_axes", "expected an object of model keys, each with an array of values, e.g. {\"nic_bandwidth\": [\"1Gbps\", \"10Gbps\"]}");
  std::vector<std::pair<std::string, nlohmann::json>> combos = {{"", nlohmann::json::object()}};
  for (const auto& [key, values] : axes->items()) {
    const std::string path = top.path_of("model_axes") + "/" + key;
    if (!values.is_array() || values.empty()) throw_input_error(top.file(), path, "expected a non-empty array of values");
    for (const auto& value : values) read_model(nlohmann::json{{key, value}}, top.file(), top.path_of("model_axes"), ModelSettings{});
    std::vector<std::pair<std::string, nlohmann::json>> next;
    for (const auto& [name, object] : combos)
      for (const auto& value : values) {
        nlohmann::json merged = object;
        merged[key] = value;
        const std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
        next.emplace_back(fmt::format("{}{}{}={}", name, name.empty() ? "" : ", ", key, shown), merged);
      }
    combos = std::move(next);
  }
  std::vector<ScenarioVariant> variants;
  for (const auto& base : bases)
    for (const auto& [name, object] : combos)
      variants.push_back({base.name.empty() ? name : fmt::format("{} / {}", base.name, name),
                          read_model(object, top.file(), top.path_of("model_axes"), base.model)});
  return variants;
}

// Depth-first over the nodes: each node takes a count among ALLOWED (largest first), at most the
// count of the previous node of its class when symmetric, and no more than is left to place.
struct CountSearch {
  const std::vector<std::vector<int>>& allowed;  // per node, descending
  const std::vector<int>& node_class;
  bool symmetric;
  std::vector<int> suffix_capacity;  // most ranks nodes k.. can take
  std::vector<std::vector<int>> found;
  std::vector<int> counts;

  void search(std::size_t node, int left, std::map<int, int>& last_of_class) {
    if (found.size() > kMaxGenerated) return;
    if (left == 0) {
      std::vector<int> placement = counts;
      while (!placement.empty() && placement.back() == 0) placement.pop_back();
      found.push_back(std::move(placement));
      return;
    }
    if (node == allowed.size() || left > suffix_capacity[node]) return;
    const int cls = node_class[node];
    const auto previous = last_of_class.find(cls);
    const int bound = symmetric && previous != last_of_class.end() ? previous->second : INT_MAX;
    for (int count : allowed[node]) {
      if (count > left || count > bound) continue;
      const std::optional<int> saved = previous != last_of_class.end() ? std::optional<int>(previous->second) : std::nullopt;
      last_of_class[cls] = count;
      counts.push_back(count);
      search(node + 1, left - count, last_of_class);
      counts.pop_back();
      if (saved) last_of_class[cls] = *saved;
      else last_of_class.erase(cls);
    }
  }
};

std::string placement_key(const PlacementSpec& placement) { return placement.label(); }

}  // namespace

SweepSpec load_sweep(const std::filesystem::path& file) {
  const nlohmann::json root = load_json_file(file);
  const std::string name_of_file = file.string();
  JsonObjectReader top(root, name_of_file, "");
  SweepSpec spec;
  spec.file = file;
  spec.name = top.optional_string("name").value_or(file.stem().string());
  spec.question = top.optional_string("question").value_or("");
  spec.topologies = read_topologies(top, file);
  const nlohmann::json& placements = top.required_value("placements");
  if (!placements.is_array() || placements.empty()) top.fail("placements", "expected a non-empty array of placements or generators");
  for (std::size_t i = 0; i < placements.size(); ++i)
    spec.placements.push_back(read_sweep_placement(placements[i], name_of_file, top.path_of("placements", i)));
  spec.algorithms = read_algorithms(top);
  spec.collectives = read_collectives(top, spec.algorithms);
  spec.sizes = read_sizes(top);
  spec.iterations = static_cast<int>(top.optional_int("iterations", 1, 100000).value_or(5));
  spec.warmup = static_cast<int>(top.optional_int("warmup", 0, 100000).value_or(1));
  spec.model = default_model_for(spec.algorithms);
  if (const nlohmann::json* model = top.optional_value("model"))
    spec.model = read_model(*model, name_of_file, top.path_of("model"), spec.model);
  std::vector<ScenarioVariant> bases = read_variants(top, spec.model);
  if (bases.empty()) bases.push_back({"", spec.model});
  spec.variants = apply_model_axes(top, std::move(bases));
  if (spec.variants.size() == 1 && spec.variants.front().name.empty()) spec.variants.clear();
  top.finish();
  return spec;
}

std::vector<int> interchangeable_node_classes(const ClusterLayout& layout, const Topology* topology) {
  std::vector<int> classes(layout.nodes.size());
  std::iota(classes.begin(), classes.end(), 0);
  if (topology == nullptr) return classes;
  using Key = std::tuple<std::size_t, int, int, double, double, int, double, double, double, std::vector<int>, int, int, double, double, bool, double, double>;
  std::map<Key, int> ids;
  std::size_t k = 0;
  for (std::size_t r = 0; r < topology->racks.size(); ++r)
    for (const NodeSpec& node : topology->racks[r].nodes) {
      const Key key{r, node.gpus, node.nics, node.nic.bandwidth_Bps, node.nic.latency_s, 2 * static_cast<int>(node.intra_kind) + (node.intra_ports ? 1 : 0),
                    node.intra.bandwidth_Bps, node.intra.latency_s, node.gpu_speed_flops, node.nic_affinity,
                    static_cast<int>(node.nic_transport), node.switch_gpus, node.pcie_switch.bandwidth_Bps,
                    node.pcie_switch.latency_s, node.gdr, node.host_pcie.bandwidth_Bps, node.host_pcie.latency_s};
      classes.at(k++) = ids.emplace(key, static_cast<int>(ids.size())).first->second;
    }
  return classes;
}

std::vector<std::vector<int>> generate_rank_counts(const PlacementGenerator& generator, const ClusterLayout& layout,
                                                   const std::vector<int>& node_class) {
  const bool subsets = generator.kind == PlacementGenerator::Kind::every_subset;
  std::vector<std::vector<int>> allowed(layout.nodes.size());
  int total = generator.ranks;
  if (subsets) total = generator.nodes * (generator.per_node > 0 ? generator.per_node : static_cast<int>(layout.nodes.front().hosts.size()));
  for (std::size_t k = 0; k < layout.nodes.size(); ++k) {
    const int slots = static_cast<int>(layout.nodes[k].hosts.size());
    if (subsets) {
      const int per_node = total / generator.nodes;
      if (per_node <= slots) allowed[k].push_back(per_node);
    } else {
      for (int c = generator.per_node > 0 ? std::min(slots, generator.per_node) : slots; c > 0; --c) allowed[k].push_back(c);
    }
    allowed[k].push_back(0);
  }
  CountSearch search{allowed, node_class, generator.up_to_symmetry, std::vector<int>(allowed.size() + 1, 0), {}, {}};
  for (std::size_t k = allowed.size(); k-- > 0;) search.suffix_capacity[k] = search.suffix_capacity[k + 1] + allowed[k].front();
  std::map<int, int> last_of_class;
  search.search(0, total, last_of_class);
  return std::move(search.found);
}

ExpandedSweep expand_sweep(const SweepSpec& spec, const std::vector<ClusterLayout>& layouts,
                           const std::vector<const Topology*>& topologies) {
  const std::string file = spec.file.string();
  std::vector<ScenarioVariant> variants = spec.variants;
  if (variants.empty()) variants.push_back({"", spec.model});
  ExpandedSweep expanded;
  for (std::size_t t = 0; t < spec.topologies.size(); ++t) {
    const ClusterLayout& layout = layouts.at(t);
    const std::vector<int> classes = interchangeable_node_classes(layout, topologies.at(t));
    std::vector<PlacementSpec> placements;
    std::set<std::string> seen;
    auto add = [&](PlacementSpec placement) {
      if (seen.insert(placement_key(placement)).second) placements.push_back(std::move(placement));
    };
    for (const SweepPlacementEntry& entry : spec.placements) {
      if (const auto* listed = std::get_if<PlacementSpec>(&entry.entry)) {
        if (auto misfit = placement_misfit(*listed, layout))
          throw_input_error(file, entry.path, fmt::format("{} (topology {})", *misfit, spec.topologies[t].string()));
        add(*listed);
        continue;
      }
      const auto& generator = std::get<PlacementGenerator>(entry.entry);
      const auto counts = generate_rank_counts(generator, layout, classes);
      if (counts.size() > kMaxGenerated)
        throw_input_error(file, entry.path, fmt::format("more than {} placements; set \"up_to_symmetry\": true, \"max_per_node\", or fewer ranks", kMaxGenerated));
      if (counts.empty()) {
        int slots = 0;
        for (const auto& node : layout.nodes) slots += static_cast<int>(node.hosts.size());
        throw_input_error(file, entry.path,
                          fmt::format("generates no placement: topology {} has {} rank slots on {} nodes",
                                      spec.topologies[t].string(), slots, layout.nodes.size()));
      }
      for (const auto& ranks : counts)
        for (RankOrder order : generator.orders) add(PlacementSpec{ranks, order});
    }
    for (const ScenarioVariant& variant : variants) {
      Scenario scenario{spec.file, spec.name, spec.question, spec.topologies[t], placements, spec.algorithms, spec.sizes,
                        spec.iterations, spec.warmup, variant.model, {}};
      scenario.collectives = spec.collectives;
      if (!variant.name.empty()) scenario = scenario_for_variant(scenario, variant);
      const std::size_t group = expanded.groups.size();
      expanded.groups.push_back({t, variant.name, std::move(scenario)});
      for (std::size_t p = 0; p < placements.size(); ++p)
        for (std::size_t a = 0; a < spec.algorithms.size(); ++a)
          for (std::size_t k = 0; k < spec.collectives.size(); ++k) expanded.cases.push_back({group, p, a, k});
    }
  }
  return expanded;
}

}  // namespace ringsim
