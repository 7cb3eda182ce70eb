#include "case_results.h"

#include "../common/statistics.h"
#include "../model/algorithm_registry.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

double SizeResult::median_s() const { return median(times_s); }

double SizeResult::min_s() const { return times_s.empty() ? 0 : *std::min_element(times_s.begin(), times_s.end()); }

double SizeResult::max_s() const { return times_s.empty() ? 0 : *std::max_element(times_s.begin(), times_s.end()); }

SimulationCase planned_case(const PlacementSpec& placement, const std::string& algorithm, const std::string& engine,
                            const ClusterLayout& layout, Collective collective) {
  SimulationCase planned{placement, algorithm, engine};
  planned.collective = collective;
  planned.ring.nodes = node_of_ranks(placement);
  planned.ring.hosts = hosts_of_ranks(planned.ring.nodes, layout);
  return planned;
}

std::shared_ptr<const NcclPlan> nccl_plan_of(const SimulationCase& spec, const ModelSettings& model) {
  if (spec.nccl) return spec.nccl;
  std::optional<NcclPlan> made = plan_nccl_case(model, spec.placement, spec.algorithm, spec.collective);
  return made ? std::make_shared<const NcclPlan>(std::move(*made)) : nullptr;
}

std::string algorithm_label(const SimulationCase& spec, std::string_view separator) {
  if (spec.collective == Collective::all_reduce) return spec.algorithm;
  return fmt::format("{}{}{}", collective_name(spec.collective), separator, spec.algorithm);
}

std::string case_name(const SimulationCase& spec, CaseNaming naming) {
  const std::string algorithm = algorithm_label(spec, naming == CaseNaming::directory ? "-" : " ");
  const PlacementSpec& placement = spec.placement;
  const std::vector<int>& counts = placement.ranks_per_node;
  const std::string ranks = placement.ranks_text();
  const std::string_view order = order_name(placement.order);
  switch (naming) {
    case CaseNaming::table:
      return fmt::format("{} {} {}", ranks, order, algorithm);
    case CaseNaming::finding: {
      const bool uniform = counts.size() > 4 && std::all_of(counts.begin(), counts.end(), [&](int c) { return c == counts.front(); });
      const std::string where = uniform ? fmt::format("{}x{} {}", counts.size(), counts.front(), order) : fmt::format("{} {}", ranks, order);
      const bool plain = names_algorithm(spec.algorithm, kDefaultAlgorithm) && spec.collective == Collective::all_reduce;
      return plain ? where : fmt::format("{} {}", where, algorithm);
    }
    case CaseNaming::progress:
      if (ranks.size() <= 32) return fmt::format("{} {} {}", ranks, order, algorithm);
      return fmt::format("{} ranks on {} nodes {} {}", placement.total_ranks(), counts.size(), order, algorithm);
    case CaseNaming::directory: {
      const std::string where = ranks.size() <= 32 ? ranks : fmt::format("{}ranks-{}nodes", placement.total_ranks(), counts.size());
      return fmt::format("{}-{}-{}", where, order, algorithm);
    }
    case CaseNaming::legend: {
      const std::string where = ranks.size() <= 16 ? ranks : fmt::format("{} nodes", counts.size());
      return fmt::format("{} {} {}", where, order, algorithm);
    }
  }
  return ranks;
}

double algbw_GBps(std::uint64_t bytes, double time_s) {
  return time_s > 0 ? static_cast<double>(bytes) / time_s / 1e9 : 0;
}

double busbw_GBps(std::uint64_t bytes, double time_s, int ranks, Collective collective) {
  if (collective != Collective::all_reduce) return ranks > 0 ? algbw_GBps(bytes, time_s) * busbw_factor(collective, ranks) : 0;
  return ranks > 0 ? algbw_GBps(bytes, time_s) * 2.0 * (ranks - 1) / ranks : 0;
}

}  // namespace ringsim
