#include "ring_bottlenecks.h"

#include "../analysis/placement_analysis.h"
#include "../analysis/ring_analysis.h"
#include "../common/input_error.h"

#include <fmt/format.h>
#include <map>
#include <memory>

namespace ringsim {
namespace {

struct NamerState {
  Platform platform;
  std::string topology_file, results_file;
  std::map<std::string, ModelSettings> model_of_variant;  // "" without variants
  std::map<std::string, std::string> named;               // variant, placement, order -> bottleneck

  std::string name(const ResultRow& row) {
    if (row.algorithm != "ring" || row.ranks < 2) return "";
    const std::string key = fmt::format("{}\n{}\n{}", row.variant, row.placement, row.order);
    if (auto it = named.find(key); it != named.end()) return it->second;
    const auto counts = parse_rank_counts(row.placement);
    const auto order = parse_rank_order(row.order);
    const auto model = model_of_variant.find(row.variant);
    if (!counts || !order || model == model_of_variant.end()) return named[key] = "";
    PlacementAnalysisRequest request;
    request.placement.ranks_per_node = *counts;
    request.placement.order = *order;
    request.sizes = {row.bytes};
    request.platform_file = topology_file;
    request.model_where = results_file;
    const PlacementAnalysis analysis = analyze_placement(platform, model->second, request);
    return named[key] = describe_bottleneck(analysis.ring, analysis.bottleneck, analysis.hosts);
  }
};

}  // namespace

BottleneckNamer ring_bottleneck_namer(const std::string& topology_file, const ResultsDocument& results,
                                      const std::string& results_file) {
  auto state = std::make_shared<NamerState>(NamerState{load_platform(topology_file), topology_file, results_file, {}, {}});
  if (results.variants.empty()) {
    state->model_of_variant[""] =
        results.model.is_null() ? ModelSettings{} : read_model(results.model, results_file, "/model", ModelSettings{});
  }
  for (std::size_t i = 0; i < results.variants.size(); ++i)
    state->model_of_variant[results.variants[i].name] =
        read_model(results.variants[i].model, results_file, fmt::format("/variants/{}/model", i), ModelSettings{});
  return [state](const ResultRow& row) { return state->name(row); };
}

}  // namespace ringsim
