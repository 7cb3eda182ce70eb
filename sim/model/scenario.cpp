#include "scenario.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../common/units.h"
#include "algorithm_registry.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr int kMaxRanks = 65536;

std::uint64_t read_size(const nlohmann::json& value, const std::string& file, const std::string& path) {
  const std::optional<std::uint64_t> bytes = JsonValue(value, file, path).byte_count();
  if (!bytes) throw_input_error(file, path, fmt::format("expected {}, found {}", kBytesHint, describe_json(value)));
  if (*bytes == 0 || *bytes % 4 != 0)
    throw_input_error(file, path, fmt::format("{} bytes is not a whole, non-empty float32 buffer: use a multiple of 4",
                                              *bytes));
  return *bytes;
}

}  // namespace

// "sizes": ["1MiB", "16MiB"] or, as nccl-tests' -b/-e/-f, {"from": "1MiB", "to": "256MiB", "factor": 2}.
std::vector<std::uint64_t> read_sizes(JsonObjectReader& top) {
  const nlohmann::json& sizes = top.required_value("sizes");
  std::vector<std::uint64_t> bytes;
  if (sizes.is_array()) {
    for (std::size_t i = 0; i < sizes.size(); ++i) bytes.push_back(read_size(sizes[i], top.file(), top.path_of("sizes", i)));
  } else if (sizes.is_object()) {
    JsonObjectReader range(sizes, top.file(), top.path_of("sizes"));
    const std::uint64_t from = read_size(range.required_value("from"), top.file(), range.path_of("from"));
    const std::uint64_t to = read_size(range.required_value("to"), top.file(), range.path_of("to"));
    const auto factor = range.optional_int("factor", 2, 1024).value_or(2);
    range.finish();
    if (to < from) range.fail("to", "must not be smaller than \"from\"");
    for (std::uint64_t b = from; b <= to; b *= static_cast<std::uint64_t>(factor)) bytes.push_back(b);
  }
  if (bytes.empty()) top.fail("sizes", "expected a non-empty array of sizes or an object {\"from\", \"to\", \"factor\"}");
  return bytes;
}

PlacementSpec read_placement(const nlohmann::json& value, const std::string& file, const std::string& path) {
  constexpr auto kHint = "expected \"4-3-1\" (ranks per node, block order) or {\"ranks\": \"4-3-1\", \"order\": \"cyclic\"}";
  PlacementSpec placement;
  std::string ranks_text;
  if (value.is_string()) {
    ranks_text = value.get<std::string>();
  } else if (value.is_object()) {
    JsonObjectReader reader(value, file, path);
    ranks_text = reader.required_string("ranks");
    if (auto order = reader.optional_string("order")) {
      auto parsed = parse_rank_order(*order);
      if (!parsed)
        reader.fail("order", fmt::format("unknown order \"{}\"; expected \"block\", \"cyclic\" or \"optimized\"", *order));
      placement.order = *parsed;
    }
    reader.finish();
  } else {
    throw_input_error(file, path, fmt::format("{}, found {}", kHint, describe_json(value)));
  }
  auto counts = parse_rank_counts(ranks_text);
  if (!counts) throw_input_error(file, path, fmt::format("\"{}\" is not a placement; {}", ranks_text, kHint));
  placement.ranks_per_node = *counts;
  if (placement.total_ranks() > kMaxRanks)
    throw_input_error(file, path, fmt::format("{} ranks is more than the {} this version simulates", placement.total_ranks(), kMaxRanks));
  return placement;
}

std::vector<std::string> read_algorithms(JsonObjectReader& top) {
  const nlohmann::json* algorithms = top.optional_value("algorithms");
  if (algorithms == nullptr) return {algorithm_name(kDefaultAlgorithm)};
  if (!algorithms->is_array() || algorithms->empty()) top.fail("algorithms", "expected a non-empty array of algorithm names");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < algorithms->size(); ++i) {
    const auto& entry = (*algorithms)[i];
    if (!entry.is_string() || find_algorithm_row(entry.get<std::string>()) == nullptr) {
      std::vector<std::string_view> catalog;
      for (const auto& info : kAlgorithmCatalog) catalog.push_back(info.name);
      throw_input_error(top.file(), top.path_of("algorithms", i),
                        fmt::format("unknown algorithm {}; known: {}", describe_json(entry), fmt::join(catalog, ", ")));
    }
    names.push_back(entry.get<std::string>());
  }
  return names;
}

std::string collective_algorithms_text(Collective collective) {
  std::vector<std::string_view> names;
  if (collective == Collective::all_reduce)
    for (const auto& info : kAlgorithmCatalog) names.push_back(info.name);
  for (const auto& info : kCollectiveAlgorithms)
    if (info.collective == collective) names.push_back(info.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

bool runs_collective(std::string_view algorithm, Collective collective) {
  if (collective == Collective::all_reduce) return find_algorithm_info(algorithm) != nullptr;
  return find_collective_algorithm_info(collective, algorithm) != nullptr;
}

std::vector<Collective> read_collectives(JsonObjectReader& top, const std::vector<std::string>& algorithms) {
  std::vector<Collective> collectives;
  const nlohmann::json* list = top.optional_value("collectives");
  if (list == nullptr) collectives = {Collective::all_reduce};
  else if (!list->is_array() || list->empty())
    top.fail("collectives", fmt::format("expected a non-empty array of collectives ({})", fmt::join(kCollectiveNames, ", ")));
  else
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto& entry = (*list)[i];
      const std::optional<Collective> collective = entry.is_string() ? find_collective(entry.get<std::string>()) : std::nullopt;
      if (!collective)
        throw_input_error(top.file(), top.path_of("collectives", i),
                          fmt::format("unknown collective {}; known: {}", describe_json(entry), fmt::join(kCollectiveNames, ", ")));
      if (std::find(collectives.begin(), collectives.end(), *collective) != collectives.end())
        throw_input_error(top.file(), top.path_of("collectives", i), fmt::format("collective {} is named twice", describe_json(entry)));
      collectives.push_back(*collective);
    }
  // Without "algorithms" (the default ring) the collective is what to change.
  const bool algorithms_named = top.optional_value("algorithms") != nullptr;
  for (std::size_t i = 0; i < algorithms.size(); ++i)
    for (std::size_t k = 0; k < collectives.size(); ++k)
      if (const Collective collective = collectives[k]; !runs_collective(algorithms[i], collective))
        throw_input_error(top.file(), algorithms_named ? top.path_of("algorithms", i) : top.path_of("collectives", k),
                          fmt::format("algorithm {} has no version for collective {} (its algorithms: {})", algorithms[i],
                                      collective_name(collective), collective_algorithms_text(collective)));
  return collectives;
}

std::vector<ScenarioVariant> read_variants(JsonObjectReader& top, const ModelSettings& base) {
  std::vector<ScenarioVariant> variants;
  const nlohmann::json* list = top.optional_value("variants");
  if (list == nullptr) return variants;
  if (!list->is_array() || list->empty())
    top.fail("variants", "expected a non-empty array such as [{\"name\": \"1 Gbit/s\", \"model\": {\"nic_bandwidth\": \"1Gbps\"}}]");
  for (std::size_t i = 0; i < list->size(); ++i) {
    JsonObjectReader entry((*list)[i], top.file(), top.path_of("variants", i));
    ScenarioVariant variant{entry.required_string("name"), base};
    if (const nlohmann::json* model = entry.optional_value("model"))
      variant.model = read_model(*model, top.file(), entry.path_of("model"), base);
    entry.finish();
    for (const auto& earlier : variants)
      if (earlier.name == variant.name) entry.fail("name", fmt::format("variant name \"{}\" is used twice", variant.name));
    variants.push_back(std::move(variant));
  }
  return variants;
}

Scenario load_scenario(const std::filesystem::path& file, PlacementsKey placements_key) {
  const nlohmann::json root = load_json_file(file);
  const std::string name_of_file = file.string();
  JsonObjectReader top(root, name_of_file, "");
  Scenario scenario;
  scenario.file = file;
  scenario.name = top.optional_string("name").value_or(file.stem().string());
  scenario.question = top.optional_string("question").value_or("");
  scenario.topology = file.parent_path() / top.required_string("topology");

  const nlohmann::json* placements =
      placements_key == PlacementsKey::optional ? top.optional_value("placements") : &top.required_value("placements");
  if (placements) {
    if (!placements->is_array() || placements->empty()) top.fail("placements", "expected a non-empty array of placements");
    for (std::size_t i = 0; i < placements->size(); ++i)
      scenario.placements.push_back(read_placement((*placements)[i], name_of_file, top.path_of("placements", i)));
  }

  scenario.algorithms_given = top.optional_value("algorithms") != nullptr;
  scenario.algorithms = read_algorithms(top);
  scenario.collectives = read_collectives(top, scenario.algorithms);
  scenario.sizes = read_sizes(top);
  scenario.iterations = static_cast<int>(top.optional_int("iterations", 1, 100000).value_or(5));
  scenario.warmup = static_cast<int>(top.optional_int("warmup", 0, 100000).value_or(1));
  scenario.check = top.optional_bool("check").value_or(true);
  scenario.model = default_model_for(scenario.algorithms);
  if (const nlohmann::json* model = top.optional_value("model"))
    scenario.model = read_model(*model, name_of_file, top.path_of("model"), scenario.model);
  scenario.variants = read_variants(top, scenario.model);
  top.finish();
  return scenario;
}

Scenario scenario_for_variant(const Scenario& scenario, const ScenarioVariant& variant) {
  Scenario one = scenario;
  one.name = fmt::format("{} [{}]", scenario.name, variant.name);
  one.model = variant.model;
  one.variants.clear();
  return one;
}

void check_placements_fit(const Scenario& scenario, const ClusterLayout& layout) {
  for (std::size_t i = 0; i < scenario.placements.size(); ++i) {
    if (auto misfit = placement_misfit(scenario.placements[i], layout))
      throw_input_error(scenario.file.string(), fmt::format("/placements/{}", i),
                        fmt::format("{} (topology {})", *misfit, scenario.topology.string()));
    const PlacementSpec& placement = scenario.placements[i];
    for (const std::string& algorithm : scenario.algorithms) {
      const AlgorithmRow* row = find_algorithm_row(algorithm);
      const AlgorithmInfo::Placements placements = row != nullptr ? row->placements() : AlgorithmInfo::Placements::any;
      if (placements == AlgorithmInfo::Placements::one_node && placement.nodes_used() > 1)
        throw_input_error(scenario.file.string(), fmt::format("/placements/{}", i),
                          fmt::format("{} runs on one node, and placement {} spans {} nodes: give it a placement of one node, "
                                      "or use nccl_nvls_tree, or nccl, which picks NVLS only there",
                                      algorithm, placement.label(), placement.nodes_used()));
      if (placements == AlgorithmInfo::Placements::same_per_node && !placement.same_ranks_on_each_node())
        throw_input_error(scenario.file.string(), fmt::format("/placements/{}", i),
                          fmt::format("{} needs as many ranks on every node, and placement {} has not: give it one such as 8-8, "
                                      "or use nccl, which picks NVLS trees only there",
                                      algorithm, placement.label()));
    }
  }
}

}  // namespace ringsim
