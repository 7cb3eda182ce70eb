#include "ring_bottlenecks.h"

#include "../analysis/alltoall_load.h"
#include "../analysis/placement_analysis.h"
#include "../common/units.h"
#include "../common/input_error.h"
#include "../model/algorithm_registry.h"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>

namespace ringsim {
namespace {

// An alltoall row's busiest NIC, from its pair flows (alltoall_load.h): "the NIC of node0, whose 4
// ranks exchange ... (2.00 buffers each way), 32MiB each way"; "" when the placement does not fit.
std::string alltoall_bottleneck(const ResultRow& row, const ClusterLayout& layout) {
  const auto counts = parse_rank_counts(row.placement);
  const auto order = parse_rank_order(row.order);
  if (row.collective != collective_name(Collective::alltoall) || row.ranks < 2 || !counts || !order) return "";
  SimulationCase spec;
  spec.placement.ranks_per_node = *counts;
  spec.placement.order = *order;
  if (placement_misfit(spec.placement, layout)) return "";
  spec.ring.nodes = node_of_ranks(spec.placement);
  spec.ring.hosts = hosts_of_ranks(spec.ring.nodes, layout);
  const AlltoallNicLoad load = busiest_alltoall_nic(spec);
  const auto moved = static_cast<std::uint64_t>(std::llround(load.buffers * static_cast<double>(row.bytes)));
  return fmt::format("{}, {} each way", describe_alltoall_load(load), format_bytes(moved));
}

}  // namespace

struct RingCases::State {
  Platform platform;
  std::string topology_file, results_file;
  std::map<std::string, ModelSettings> model_of_variant;  // "" without variants
  std::map<std::string, ModelSettings> nccl_model_of_variant;  // where NCCL's algorithms ran under another model
  std::map<std::string, std::unique_ptr<RingCase>> cases;  // variant, placement, order -> case
  std::map<std::string, std::unique_ptr<NcclChannelsCase>> nccl_cases;  // variant, placement, order, algorithm, size

  const NcclChannelsCase* nccl_of(const ResultRow& row) {
    if (!nccl_request_of(row.algorithm) || row.ranks < 2 || !platform.topology) return nullptr;
    const std::string key = fmt::format("{}\n{}\n{}\n{}\n{}", row.variant, row.placement, row.order, row.algorithm, row.bytes);
    if (auto it = nccl_cases.find(key); it != nccl_cases.end()) return it->second.get();
    const auto counts = parse_rank_counts(row.placement);
    const auto order = parse_rank_order(row.order);
    auto model = nccl_model_of_variant.find(row.variant);
    if (model == nccl_model_of_variant.end()) model = model_of_variant.find(row.variant);
    if (!counts || !order || model == model_of_variant.end()) return (nccl_cases[key] = nullptr).get();
    ModelSettings with_facts = model->second;
    with_facts.adopt_topology_gpus(*platform.topology);
    with_facts.nccl_facts = nccl_topology_facts(with_facts.shape(*platform.topology));
    PlacementSpec placement;
    placement.ranks_per_node = *counts;
    placement.order = *order;
    auto nccl = nccl_channels_case(with_facts, placement, row.algorithm, row.bytes);
    return (nccl_cases[key] = nccl ? std::make_unique<NcclChannelsCase>(std::move(*nccl)) : nullptr).get();
  }

  const RingCase* of(const ResultRow& row) {
    if (!names_algorithm(row.algorithm, AlgorithmId::ring) || row.ranks < 2) return nullptr;
    const std::string key = fmt::format("{}\n{}\n{}", row.variant, row.placement, row.order);
    if (auto it = cases.find(key); it != cases.end()) return it->second.get();
    const auto counts = parse_rank_counts(row.placement);
    const auto order = parse_rank_order(row.order);
    const auto model = model_of_variant.find(row.variant);
    if (!counts || !order || model == model_of_variant.end()) return (cases[key] = nullptr).get();
    PlacementAnalysisRequest request;
    request.placement.ranks_per_node = *counts;
    request.placement.order = *order;
    request.sizes = {row.bytes};
    request.platform_file = topology_file;
    request.model_where = results_file;
    PlacementAnalysis analysis = analyze_placement(platform, model->second, request);
    auto named = std::make_unique<RingCase>();
    named->description = describe_bottleneck(analysis.ring, analysis.bottleneck, analysis.hosts);
    named->mechanism = bottleneck_mechanism(analysis.ring, analysis.bottleneck, analysis.hosts);
    named->hosts = std::move(analysis.hosts);
    named->ring = std::move(analysis.ring);
    named->bottleneck = analysis.bottleneck;
    return (cases[key] = std::move(named)).get();
  }
};

RingCases::RingCases(const std::string& topology_file, const ResultsDocument& results, const std::string& results_file)
    : state_(std::make_shared<State>(State{load_platform(topology_file), topology_file, results_file, {}, {}, {}, {}})) {
  if (results.variants.empty()) {
    state_->model_of_variant[""] =
        results.model.is_null() ? ModelSettings{} : read_model(results.model, results_file, "/model", ModelSettings{});
    if (!results.nccl_model.is_null())
      state_->nccl_model_of_variant[""] = read_model(results.nccl_model, results_file, "/nccl_model", ModelSettings{});
  }
  for (std::size_t i = 0; i < results.variants.size(); ++i) {
    const VariantModel& variant = results.variants[i];
    state_->model_of_variant[variant.name] = read_model(variant.model, results_file, fmt::format("/variants/{}/model", i), ModelSettings{});
    if (!variant.nccl_model.is_null())
      state_->nccl_model_of_variant[variant.name] =
          read_model(variant.nccl_model, results_file, fmt::format("/variants/{}/nccl_model", i), ModelSettings{});
  }
}

RingCases::~RingCases() = default;

const RingCase* RingCases::of(const ResultRow& row) const { return state_->of(row); }
const NcclChannelsCase* RingCases::nccl_of(const ResultRow& row) const { return state_->nccl_of(row); }
const ClusterLayout& RingCases::layout() const { return state_->platform.layout; }
const std::string& RingCases::topology_file() const { return state_->topology_file; }

BottleneckNamer ring_bottleneck_namer(const RingCases& cases) {
  return [cases](const ResultRow& row) {
    if (std::string alltoall = alltoall_bottleneck(row, cases.layout()); !alltoall.empty()) return alltoall;
    if (const RingCase* ring = cases.of(row)) return ring->description;
    const NcclChannelsCase* nccl = cases.nccl_of(row);
    return nccl == nullptr ? std::string() : nccl->description;
  };
}

}  // namespace ringsim
