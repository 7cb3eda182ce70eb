#include "engine_capabilities.h"

#include "../common/input_error.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

void need(CaseNeeds& needs, EngineCapability capability, const std::string& reason) {
  needs.capabilities |= static_cast<unsigned>(capability);
  if (std::find(needs.reasons.begin(), needs.reasons.end(), reason) == needs.reasons.end()) needs.reasons.push_back(reason);
}

std::string_view capability_name(EngineCapability capability) {
  switch (capability) {
    case EngineCapability::paced_sends: return "paced sends";
    case EngineCapability::scaled_sends: return "sends weighed by the switch";
    case EngineCapability::delayed_deliveries: return "delayed deliveries";
  }
  return "";
}

}  // namespace

CaseNeeds case_needs(const SimulationCase& spec, const std::vector<std::uint64_t>& sizes) {
  CaseNeeds needs;
  if (!spec.nccl) return needs;
  const NcclPlan& plan = *spec.nccl;
  for (std::uint64_t bytes : sizes) {
    const NcclChoice choice = plan.choice_at(bytes);
    const NcclProtocol protocol = choice.prediction.protocol;
    if (choice.algorithm == NcclAlgorithmKind::ring) {
      if (plan.handshake && protocol == NcclProtocol::simple)
        need(needs, EngineCapability::delayed_deliveries, "Simple's handshake per slice");
      if (plan.ll128_hops && protocol == NcclProtocol::ll128)
        need(needs, EngineCapability::delayed_deliveries, "LL128's hop latency");
      if (plan.block_rates && protocol != NcclProtocol::simple)
        need(needs, EngineCapability::paced_sends, fmt::format("{}'s pace", protocol_name(protocol)));
    }
    if (plan.nvls && (choice.algorithm == NcclAlgorithmKind::nvls || choice.algorithm == NcclAlgorithmKind::nvls_tree))
      need(needs, EngineCapability::scaled_sends, "NVLS's traffic in the switch");
  }
  return needs;
}

std::optional<std::string> engine_lacks(std::string_view engine, const CaseNeeds& needs) {
  const auto row = std::find_if(std::begin(kEngines), std::end(kEngines), [&](const EngineRow& e) { return e.name == engine; });
  const unsigned has = row == std::end(kEngines) ? 0 : row->capabilities;
  const unsigned missing = needs.capabilities & ~has;
  if (missing == 0) return std::nullopt;
  std::vector<std::string> lacking;
  for (EngineCapability capability : {EngineCapability::paced_sends, EngineCapability::scaled_sends, EngineCapability::delayed_deliveries})
    if (missing & static_cast<unsigned>(capability)) lacking.emplace_back(capability_name(capability));
  std::vector<std::string> able;
  for (const EngineRow& e : kEngines)
    if ((needs.capabilities & ~e.capabilities) == 0) able.emplace_back(fmt::format("\"{}\"", e.name));
  return fmt::format("it has no {}, which {} needs; name {} or \"auto\"", fmt::join(lacking, " or "),
                     fmt::join(needs.reasons, " and "), fmt::join(able, " or "));
}

void check_engine_capable(const Scenario& scenario, const SimulationCase& spec) {
  if (scenario.model.engine == "auto") return;
  if (const auto why = engine_lacks(spec.engine, case_needs(spec, scenario.sizes)))
    throw InputError(fmt::format("{}: /model/engine: engine \"{}\" cannot run {} on {} as modelled: {}", scenario.file.string(),
                                 spec.engine, spec.algorithm, spec.placement.label(), *why));
}

}  // namespace ringsim
