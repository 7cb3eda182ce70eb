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
                            const ClusterLayout& layout) {
  SimulationCase planned{placement, algorithm, engine};
  planned.ring.nodes = node_of_ranks(placement);
  planned.ring.hosts = hosts_of_ranks(planned.ring.nodes, layout);
  return planned;
}

std::shared_ptr<const NcclPlan> nccl_plan_of(const SimulationCase& spec, const ModelSettings& model) {
  if (spec.nccl) return spec.nccl;
  std::optional<NcclPlan> made = plan_nccl_case(model, spec.placement, spec.algorithm);
  return made ? std::make_shared<const NcclPlan>(std::move(*made)) : nullptr;
}

std::string case_name(const SimulationCase& spec, CaseNaming naming) {
  const PlacementSpec& placement = spec.placement;
  const std::vector<int>& counts = placement.ranks_per_node;
  const std::string ranks = placement.ranks_text();
  const std::string_view order = order_name(placement.order);
  switch (naming) {
    case CaseNaming::table:
      return fmt::format("{} {} {}", ranks, order, spec.algorithm);
    case CaseNaming::finding: {
      const bool uniform = counts.size() > 4 && std::all_of(counts.begin(), counts.end(), [&](int c) { return c == counts.front(); });
      const std::string where = uniform ? fmt::format("{}x{} {}", counts.size(), counts.front(), order) : fmt::format("{} {}", ranks, order);
      return names_algorithm(spec.algorithm, kDefaultAlgorithm) ? where : fmt::format("{} {}", where, spec.algorithm);
    }
    case CaseNaming::progress:
      if (ranks.size() <= 32) return fmt::format("{} {} {}", ranks, order, spec.algorithm);
      return fmt::format("{} ranks on {} nodes {} {}", placement.total_ranks(), counts.size(), order, spec.algorithm);
    case CaseNaming::directory: {
      const std::string where = ranks.size() <= 32 ? ranks : fmt::format("{}ranks-{}nodes", placement.total_ranks(), counts.size());
      return fmt::format("{}-{}-{}", where, order, spec.algorithm);
    }
    case CaseNaming::legend: {
      const std::string where = ranks.size() <= 16 ? ranks : fmt::format("{} nodes", counts.size());
      return fmt::format("{} {} {}", where, order, spec.algorithm);
    }
  }
  return ranks;
}

double algbw_GBps(std::uint64_t bytes, double time_s) {
  return time_s > 0 ? static_cast<double>(bytes) / time_s / 1e9 : 0;
}

double busbw_GBps(std::uint64_t bytes, double time_s, int ranks) {
  return ranks > 0 ? algbw_GBps(bytes, time_s) * 2.0 * (ranks - 1) / ranks : 0;
}

}  // namespace ringsim
