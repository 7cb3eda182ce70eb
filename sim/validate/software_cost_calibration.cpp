#include "software_cost_calibration.h"

#include "../common/statistics.h"
#include "../nccl/tuning/nccl_choice.h"
#include "../nccl/tuning/nccl_ring_model.h"
#include "trace_validation.h"

#include <array>
#include <optional>
#include <cmath>
#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr std::size_t kTerms = 3;
using TermVector = std::array<double, kTerms>;

// The relative features of one sample: the cost's derivative in each term, over the measured time.
TermVector features(const SoftwareCostSample& sample) {
  return {1 / sample.measured_s, sample.steps.intra / sample.measured_s, sample.steps.net / sample.measured_s};
}

// Solves A x = b for the FREE terms (Gauss-Jordan, partial pivoting); false when singular.
bool solve(std::array<TermVector, kTerms> a, TermVector b, const std::vector<std::size_t>& free, TermVector& x) {
  const std::size_t n = free.size();
  std::array<std::array<double, kTerms + 1>, kTerms> m{};
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) m[i][j] = a[free[i]][free[j]];
    m[i][n] = b[free[i]];
  }
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t k = c + 1; k < n; ++k)
      if (std::abs(m[k][c]) > std::abs(m[pivot][c])) pivot = k;
    if (std::abs(m[pivot][c]) < 1e-300) return false;
    std::swap(m[c], m[pivot]);
    for (std::size_t k = 0; k < n; ++k) {
      if (k == c) continue;
      const double f = m[k][c] / m[c][c];
      for (std::size_t j = c; j <= n; ++j) m[k][j] -= f * m[c][j];
    }
  }
  x = {};
  for (std::size_t i = 0; i < n; ++i) x[free[i]] = m[i][n] / m[i][i];
  return true;
}

double objective(const std::vector<SoftwareCostSample>& samples, const TermVector& theta) {
  double sum = 0;
  for (const SoftwareCostSample& sample : samples) {
    const TermVector f = features(sample);
    const double residual = sample.zero_cost_s / sample.measured_s - 1 + f[0] * theta[0] + f[1] * theta[1] + f[2] * theta[2];
    sum += residual * residual;
  }
  return sum;
}

std::optional<NcclAlgorithmKind> algorithm_of(const std::string& ran) {  // "Ring/Simple"
  const std::string name = ran.substr(0, ran.find('/'));
  for (NcclAlgorithmKind kind :
       {NcclAlgorithmKind::ring, NcclAlgorithmKind::tree, NcclAlgorithmKind::nvls, NcclAlgorithmKind::nvls_tree, NcclAlgorithmKind::pat})
    if (nccl_algorithm_name(kind) == name) return kind;
  return std::nullopt;
}

int nodes_of(const std::string& placement) {  // "4-2-2": 3
  int nodes = 1;
  for (char c : placement) nodes += c == '-';
  return nodes;
}

}  // namespace

SoftwareCostTerms fit_software_cost_terms(const std::vector<SoftwareCostSample>& samples) {
  std::array<TermVector, kTerms> a{};
  TermVector b{};
  std::array<bool, kTerms> used{};
  for (const SoftwareCostSample& sample : samples) {
    const TermVector f = features(sample);
    const double y = 1 - sample.zero_cost_s / sample.measured_s;
    for (std::size_t i = 0; i < kTerms; ++i) {
      used[i] = used[i] || f[i] != 0;
      b[i] += f[i] * y;
      for (std::size_t j = 0; j < kTerms; ++j) a[i][j] += f[i] * f[j];
    }
  }
  // Every feasible set of free terms, then the first within a hair of the best in the order of fewer
  // terms, the call before the network step before the step inside nodes: one placement's calls take
  // as few distinct step counts as algorithms run (a ring's, a tree's), so several sets fit alike, and
  // the simplest must be the one written, not whichever the rounding of the simulated times favours.
  constexpr std::array<unsigned, 8> kOrder{0b000, 0b001, 0b100, 0b010, 0b101, 0b011, 0b110, 0b111};
  std::array<std::optional<std::pair<double, TermVector>>, 8> fits;
  double best_objective = objective(samples, {});
  for (std::size_t k = 0; k < kOrder.size(); ++k) {
    const unsigned mask = kOrder[k];
    std::vector<std::size_t> free;
    bool usable = true;
    for (std::size_t i = 0; i < kTerms; ++i)
      if (mask & (1u << i)) {
        usable = usable && used[i];
        free.push_back(i);
      }
    TermVector theta{};
    if (!usable || (!free.empty() && !solve(a, b, free, theta))) continue;
    if (theta[0] < 0 || theta[1] < 0 || theta[2] < 0) continue;
    const double value = objective(samples, theta);
    fits[k] = std::pair{value, theta};
    best_objective = std::min(best_objective, value);
  }
  TermVector best{};
  for (const auto& fit : fits)
    if (fit && fit->first <= best_objective * (1 + 1e-6) + 1e-15) {
      best = fit->second;
      break;
    }
  return {best[0], best[1], best[2]};
}

double software_cost_s(const SoftwareCostTerms& terms, const NcclCallSteps& steps) {
  return terms.call_s + steps.intra * terms.intra_step_s + steps.net * terms.net_step_s;
}

namespace {

// The costs a trace is simulated with before the fit adds the call's and the steps' on top: none but
// the costs per GB as LEARNED (a rate across clusters, not one trace's), Simple's excepted: the NICs'
// efficiency, fitted before on the trace's rate-bound sizes (Simple's), already carries what this
// cluster loses per byte there, and the learned cost on top would count it twice (the 10-node H100
// suite's 2-GPU all-gather, predicted from the 1-GPU all-reduce, came out 4.3% slow with it, 0.6% without).
NcclSoftwareCosts costs_before_fit(const NcclSoftwareCosts& learned) {
  NcclSoftwareCosts per_gb_only;
  per_gb_only.per_gb_s = learned.per_gb_s;
  per_gb_only.per_gb_s[static_cast<std::size_t>(NcclWire::simple)] = 0;
  return per_gb_only;
}

}  // namespace

std::optional<SoftwareCostFit> fit_software_costs(const Scenario& scenario, const Platform& platform,
                                                  const GroupedTrace& grouped, const std::string& algorithm) {
  if (!platform.topology) return std::nullopt;  // NCCL's facts come from a compact topology
  Scenario zero_cost = scenario;
  zero_cost.algorithms = {algorithm};
  NcclSettings settings = zero_cost.model.effective_nccl();
  const NcclSoftwareCosts per_gb_only = costs_before_fit(settings.software);
  settings.software = per_gb_only;
  zero_cost.model.nccl = settings;
  ValidationOptions options;
  options.quiet = true;
  const auto validation = validate_against_trace(zero_cost, platform, grouped, options);
  if (!validation) return std::nullopt;

  const NcclTopologyFacts facts = nccl_topology_facts(*platform.topology);
  const NcclNetPath path = nccl_net_path(facts.nic_transport);
  const NcclSoftwareCosts& learned = scenario.model.effective_nccl().software;
  const SoftwareCostTerms learned_terms{learned.call_s, facts.nvlink ? learned.nvlink_step_s : learned.pcie_step_s,
                                        learned.net_step_s[static_cast<std::size_t>(path)]};
  std::vector<SoftwareCostSample> samples;
  SoftwareCostFit fit;
  for (const ComparedCase& compared : validation->cases)
    for (const ComparedSize& size : compared.sizes) {
      const auto kind = size.nccl_ran ? algorithm_of(*size.nccl_ran) : std::nullopt;
      if (!kind) continue;
      samples.push_back({size.measured_s, size.simulated_s, nccl_call_steps(*kind, size.ranks, nodes_of(size.placement), grouped.collective)});
      fit.rows.push_back({compared.label, size.bytes, *size.nccl_ran, size.measured_s,
                          size.simulated_s + software_cost_s(learned_terms, samples.back().steps), 0});
    }
  if (samples.empty()) return std::nullopt;

  const SoftwareCostTerms terms = fit_software_cost_terms(samples);
  std::vector<double> learned_errors, fitted_errors;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    fit.rows[i].fitted_s = samples[i].zero_cost_s + software_cost_s(terms, samples[i].steps);
    learned_errors.push_back(std::abs(fit.rows[i].learned_s / samples[i].measured_s - 1));
    fitted_errors.push_back(std::abs(fit.rows[i].fitted_s / samples[i].measured_s - 1));
  }
  fit.learned_median_error = median(learned_errors);
  fit.fitted_median_error = median(fitted_errors);

  bool intra_used = false, net_used = false;
  for (const SoftwareCostSample& sample : samples) intra_used |= sample.steps.intra > 0, net_used |= sample.steps.net > 0;
  fit.costs = learned;
  fit.costs.per_gb_s = per_gb_only.per_gb_s;
  fit.costs.call_s = terms.call_s;
  fit.terms.push_back("call");
  if (intra_used) {
    (facts.nvlink ? fit.costs.nvlink_step_s : fit.costs.pcie_step_s) = terms.intra_step_s;
    fit.terms.push_back(facts.nvlink ? "intra_step.nvlink" : "intra_step.pcie");
  }
  if (net_used) {
    fit.costs.net_step_s[static_cast<std::size_t>(path)] = terms.net_step_s;
    fit.terms.push_back(fmt::format("net_step.{}", nccl_net_path_name(path)));
  }
  return fit;
}

}  // namespace ringsim
