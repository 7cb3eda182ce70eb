#include "run_diagnosis.h"

#include "../common/input_error.h"
#include "../common/statistics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace ringsim {
namespace {

std::vector<const ComparedSize*> judged_rows(const Validation& validation, std::uint64_t min_bytes) {
  std::vector<const ComparedSize*> rows;
  for (const ComparedCase& compared : validation.cases)
    for (const ComparedSize& row : compared.sizes)
      if (row.bytes >= min_bytes && row.measured_s > 0 && row.simulated_s > 0) rows.push_back(&row);
  std::stable_sort(rows.begin(), rows.end(), [](const ComparedSize* a, const ComparedSize* b) { return a->bytes < b->bytes; });
  return rows;
}

// The candidate's platform and scenario: TOPOLOGY and MODEL with its change.
struct CandidateRun {
  Platform platform;
  Scenario scenario;
};

CandidateRun candidate_run(const Scenario& simulated, const Platform& platform, const CandidateMechanism* candidate) {
  CandidateRun run{platform, simulated};
  if (candidate) apply_mechanism(candidate->id, *run.platform.topology, run.scenario.model);
  return run;
}

// A fit for STANDING's candidate, its times still to be set.
CandidateFit fit_for(const CandidateStanding& standing) {
  CandidateFit fit;
  fit.candidate = standing.candidate;
  fit.log = standing.log;
  fit.log_reason = standing.reason;
  return fit;
}

void score(CandidateFit& fit, std::uint64_t min_bytes) {
  const FitScores scores = fit_scores(fit.validation, min_bytes);
  fit.score = scores.all;
  fit.small_score = scores.small;
  fit.large_score = scores.large;
}

// The fits of the baseline (first) and of each simulated candidate, from RESULTS in STANDINGS' order.
std::vector<CandidateFit> fits_of(const std::vector<std::vector<CaseResult>>& results,
                                  const std::vector<const CandidateStanding*>& simulated, const GroupedTrace& grouped,
                                  const ValidationOptions& options) {
  std::vector<CandidateFit> fits;
  for (std::size_t i = 0; i < results.size(); ++i) {
    CandidateFit fit = i > 0 ? fit_for(*simulated[i - 1]) : CandidateFit{};
    fit.validation = compare_with_trace(grouped, results[i], options);
    score(fit, options.min_bytes);
    fits.push_back(std::move(fit));
  }
  return fits;
}

// The per-call candidate, from the baseline's times (a constant per call needs no simulation).
std::optional<CandidateFit> per_call_fit(const CandidateFit& baseline, const CandidateStanding& standing,
                                         const ValidationOptions& options) {
  const double extra = fitted_call_cost_s(baseline.validation, options.min_bytes);
  if (extra <= 0) return std::nullopt;
  CandidateFit fit = fit_for(standing);
  fit.validation = with_call_cost(baseline.validation, extra, options);
  fit.extra_call_s = extra;
  score(fit, options.min_bytes);
  return fit;
}

// Whether FIT's times are the baseline's at every size: its change is none on this run (2 channels
// where NCCL runs 2 already), so it is left out rather than ranked.
bool same_times(const CandidateFit& fit, const CandidateFit& baseline) {
  for (std::size_t c = 0; c < fit.validation.cases.size(); ++c)
    for (std::size_t s = 0; s < fit.validation.cases[c].sizes.size(); ++s)
      if (std::abs(fit.validation.cases[c].sizes[s].simulated_s / baseline.validation.cases[c].sizes[s].simulated_s - 1) > 1e-9)
        return false;
  return true;
}

// Moves the candidates of RANKED (baseline first) that change no time into LEFT_OUT.
void leave_out_unchanged(std::vector<CandidateFit>& ranked, std::vector<CandidateStanding>& left_out) {
  for (std::size_t i = ranked.size(); i-- > 1;)
    if (same_times(ranked[i], ranked.front())) {
      left_out.push_back({ranked[i].candidate, false, ranked[i].log, "its simulated times are the hardware's (the change is none on this run)"});
      ranked.erase(ranked.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

}  // namespace

FitScores fit_scores(const Validation& validation, std::uint64_t min_bytes) {
  const auto rows = judged_rows(validation, min_bytes);
  std::vector<double> all, small, large;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double error = std::abs(std::log(rows[i]->simulated_s / rows[i]->measured_s));
    all.push_back(error);
    (2 * i < rows.size() ? small : large).push_back(error);
  }
  // The two halves weigh alike: the latency-bound sizes would otherwise outvote a rate the run lacks.
  return {(median(small) + median(large)) / 2, median(small), median(large)};
}

double fitted_call_cost_s(const Validation& baseline, std::uint64_t min_bytes) {
  const auto rows = judged_rows(baseline, min_bytes);
  std::vector<double> gaps;
  for (std::size_t i = 0; i < rows.size() && i < 3; ++i) gaps.push_back(rows[i]->measured_s - rows[i]->simulated_s);
  return std::max(0.0, median(gaps));
}

Validation with_call_cost(Validation baseline, double extra_s, const ValidationOptions& options) {
  std::vector<ComparedSize> every_size;
  baseline.regimes.clear();
  for (ComparedCase& compared : baseline.cases) {
    for (ComparedSize& row : compared.sizes) row.simulated_s += extra_s;
    every_size.insert(every_size.end(), compared.sizes.begin(), compared.sizes.end());
    for (RegimeSplit& regime : split_by_regime(compared.sizes)) baseline.regimes.push_back(std::move(regime));
  }
  baseline.all = summarize(every_size, 0);
  baseline.judged = summarize(every_size, options.min_bytes);
  baseline.pass = baseline.judged.median_abs_error <= options.tolerance;
  return baseline;
}

const CandidateFit& Diagnosis::baseline() const {
  for (const CandidateFit& fit : ranked)
    if (!fit.candidate) return fit;
  throw std::logic_error("Diagnosis: no baseline");
}

const CandidateFit* Diagnosis::explaining() const {
  const CandidateFit& best = ranked.front();
  const double base = baseline().score;
  if (!best.candidate || best.score > kExplainsBelow * base || base - best.score < kExplainsBy) return nullptr;
  return &best;
}

std::vector<const CandidateFit*> Diagnosis::alike() const {
  std::vector<const CandidateFit*> tied;
  for (std::size_t i = 1; i < ranked.size(); ++i)
    if (ranked[i].candidate && ranked[i].score - ranked.front().score <= kMatchesAlike) tied.push_back(&ranked[i]);
  return tied;
}

std::optional<Diagnosis> diagnose_run(const Scenario& scenario, const Platform& platform, const GroupedTrace& grouped,
                                      const NcclRunFacts* facts, const ValidationOptions& options) {
  if (!platform.topology)
    throw InputError(fmt::format("{}: --explain needs a compact topology (JSON): SimGrid XML cannot be changed per candidate",
                                 platform.source.string()));
  const auto start = std::chrono::steady_clock::now();
  const Scenario simulated = scenario_at_trace(scenario, grouped);
  check_placements_fit(simulated, platform.layout);
  Diagnosis diagnosis;
  const std::vector<CandidateStanding> standings = candidate_standings(*platform.topology, scenario.model, facts);
  std::vector<const CandidateStanding*> in_play;  // simulated ones, per_call_cost apart
  const CandidateStanding* per_call = nullptr;
  for (const CandidateStanding& standing : standings) {
    if (!standing.in_play()) diagnosis.left_out.push_back(standing);
    else if (standing.candidate->id == MechanismId::per_call_cost) per_call = &standing;
    else in_play.push_back(&standing);
  }
  std::vector<VariantPlan> plans;
  std::vector<Platform> platforms;
  for (std::size_t i = 0; i <= in_play.size(); ++i) {
    CandidateRun run = candidate_run(simulated, platform, i == 0 ? nullptr : in_play[i - 1]->candidate);
    const std::string where = fmt::format("{}: candidate \"{}\"", scenario.file.string(), i == 0 ? "hardware" : in_play[i - 1]->candidate->name);
    plans.push_back(plan_variant(run.scenario, run.platform, where));
    platforms.push_back(std::move(run.platform));
  }
  const auto results = simulate_variants_together(plans, platforms, {options.jobs, options.quiet, std::nullopt});
  if (!results) return std::nullopt;
  diagnosis.simulations = plans.size();
  diagnosis.ranked = fits_of(*results, in_play, grouped, options);
  for (CandidateFit& fit : diagnosis.ranked) fit.validation.algorithm = simulated.algorithms.front();
  leave_out_unchanged(diagnosis.ranked, diagnosis.left_out);
  if (per_call)
    if (auto fit = per_call_fit(diagnosis.ranked.front(), *per_call, options)) diagnosis.ranked.push_back(std::move(*fit));
  std::stable_sort(diagnosis.ranked.begin(), diagnosis.ranked.end(),
                   [](const CandidateFit& a, const CandidateFit& b) { return a.score < b.score; });
  diagnosis.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return diagnosis;
}

}  // namespace ringsim
