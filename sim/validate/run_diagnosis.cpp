#include "run_diagnosis.h"

#include "candidate_screening.h"
#include "../cases/size_parts.h"
#include "../common/input_error.h"
#include "../common/statistics.h"
#include "../results/case_results.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <functional>

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

// Whether a score of BETTER beats one of WORSE clearly (kExplainsBelow, kExplainsBy): a candidate
// scoring BETTER explains a run whose hardware scores WORSE.
bool clearly_below(double better, double worse) { return better <= kExplainsBelow * worse && worse - better >= kExplainsBy; }

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

// The fit of STANDING's candidate (null: the baseline) to RESULTS.
CandidateFit fit_of(const CandidateStanding* standing, const std::vector<CaseResult>& results, const GroupedTrace& grouped,
                    const ValidationOptions& options) {
  CandidateFit fit = standing ? fit_for(*standing) : CandidateFit{};
  fit.validation = compare_with_trace(grouped, results, options);
  score(fit, options.min_bytes);
  return fit;
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

// The rate-ceiling candidate, from the baseline's times (a ceiling on the rate needs no simulation).
std::optional<CandidateFit> rate_ceiling_fit(const CandidateFit& baseline, const CandidateStanding& standing, Collective collective,
                                             const NcclRunFacts* facts, const ValidationOptions& options) {
  const auto ceiling = fitted_rate_ceiling(baseline.validation, collective, options.min_bytes);
  if (!ceiling) return std::nullopt;
  CandidateFit fit = fit_for(standing);
  fit.validation = with_rate_ceiling(baseline.validation, ceiling->busbw_Bps, collective, options);
  fit.busbw_ceiling_Bps = ceiling->busbw_Bps;
  fit.hardware_busbw_Bps = ceiling->hardware_busbw_Bps;
  if (facts) fit.channels = facts->channels;
  score(fit, options.min_bytes);
  return fit;
}

// The candidates of a diagnosis: those simulated, and those fitted to the log's times.
struct CandidatesInPlay {
  std::vector<const CandidateStanding*> simulated;
  const CandidateStanding* per_call = nullptr;
  const CandidateStanding* ceiling = nullptr;
};

// STANDINGS in play, the others added to LEFT_OUT.
CandidatesInPlay candidates_in_play(const std::vector<CandidateStanding>& standings, std::vector<CandidateStanding>& left_out) {
  CandidatesInPlay in_play;
  for (const CandidateStanding& standing : standings) {
    if (!standing.in_play()) left_out.push_back(standing);
    else if (standing.candidate->id == MechanismId::per_call_cost) in_play.per_call = &standing;
    else if (standing.candidate->id == MechanismId::rate_ceiling) in_play.ceiling = &standing;
    else in_play.simulated.push_back(&standing);
  }
  return in_play;
}

// Times this close (relative) are the same: a size simulated in another part of the sizes (the
// baseline split across the jobs, a candidate whole) starts at another simulated clock, which moved
// one time of the HKBU InfiniBand log by 2.8e-6 (2 MiB, where 2 channels is no change).
constexpr double kSameTime = 1e-5;

// Whether FIT's times are the baseline's at every size it was simulated at: its change is none on this
// run (2 channels where NCCL runs 2 already), so it is left out rather than ranked.
bool same_times(const CandidateFit& fit, const CandidateFit& baseline) {
  for (std::size_t c = 0; c < fit.validation.cases.size(); ++c)
    for (const ComparedSize& row : fit.validation.cases[c].sizes)
      for (const ComparedSize& base : baseline.validation.cases[c].sizes)
        if (base.bytes == row.bytes && std::abs(row.simulated_s / base.simulated_s - 1) > kSameTime) return false;
  return true;
}

// Moves the candidates of FITS that change no time against BASELINE into LEFT_OUT.
void leave_out_unchanged(std::vector<CandidateFit>& fits, const CandidateFit& baseline, std::vector<CandidateStanding>& left_out) {
  for (std::size_t i = fits.size(); i-- > 0;)
    if (same_times(fits[i], baseline)) {
      left_out.push_back({fits[i].candidate, false, fits[i].log, "its simulated times are the hardware's (the change is none on this run)"});
      fits.erase(fits.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

// RESULTS with only the sizes of SIZES.
std::vector<CaseResult> at_sizes(std::vector<CaseResult> results, const std::vector<std::uint64_t>& sizes) {
  for (CaseResult& result : results)
    std::erase_if(result.sizes, [&](const SizeResult& size) { return std::find(sizes.begin(), sizes.end(), size.bytes) == sizes.end(); });
  return results;
}

// FIRST's cases with MORE's sizes added, each case's sizes in SIZES' order.
std::vector<CaseResult> joined_sizes(std::vector<CaseResult> first, std::vector<CaseResult> more, const std::vector<std::uint64_t>& sizes) {
  for (std::size_t c = 0; c < first.size(); ++c) {
    std::vector<SizeResult>& joined = first[c].sizes;
    joined.insert(joined.end(), std::make_move_iterator(more[c].sizes.begin()), std::make_move_iterator(more[c].sizes.end()));
    put_in_size_order(joined, sizes);
  }
  return first;
}

// One simulation of the pool: a candidate (null: the hardware as described) at some sizes.
struct CandidateSimulation {
  const CandidateStanding* standing = nullptr;
  std::vector<std::uint64_t> sizes;
};

// What every simulation of a diagnosis shares: the scenario as written (for messages), as simulated at the
// trace's sizes, its platform, the measurement and validate's options.
struct DiagnosisInputs {
  const Scenario& scenario;
  const Scenario& simulated;
  const Platform& platform;
  const GroupedTrace& grouped;
  const ValidationOptions& options;
  const std::vector<std::uint64_t>& judged;  // the sizes the candidates are judged at (diagnosis_sizes)
};

// RUNS as one pool of cases, `jobs` at a time, RUNS[i]'s sizes split into PARTS[i] parts of about
// equal cost (size_parts.h), each a case of its own: results in RUNS' order, each run's parts joined.
std::optional<std::vector<std::vector<CaseResult>>> simulate_candidates(const std::vector<CandidateSimulation>& runs,
                                                                        const std::vector<std::size_t>& parts,
                                                                        const DiagnosisInputs& in) {
  std::vector<VariantPlan> plans;
  std::vector<Platform> platforms;
  std::vector<std::size_t> run_of_plan;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const CandidateMechanism* candidate = runs[r].standing ? runs[r].standing->candidate : nullptr;
    for (const std::vector<std::uint64_t>& part : split_sizes(runs[r].sizes, parts[r])) {
      CandidateRun run = candidate_run(in.simulated, in.platform, candidate);
      run.scenario.sizes = part;
      const std::string where = fmt::format("{}: candidate \"{}\"", in.scenario.file.string(), candidate ? candidate->name : "hardware");
      plans.push_back(plan_variant(run.scenario, run.platform, where));
      platforms.push_back(std::move(run.platform));
      run_of_plan.push_back(r);
    }
  }
  auto by_plan = simulate_variants_together(plans, platforms, {in.options.jobs, in.options.quiet, std::nullopt, false});
  if (!by_plan) return std::nullopt;
  std::vector<std::vector<CaseResult>> by_run(runs.size());
  for (std::size_t p = 0; p < plans.size(); ++p) {
    std::vector<CaseResult>& joined = by_run[run_of_plan[p]];
    joined = joined.empty() ? std::move((*by_plan)[p]) : joined_sizes(std::move(joined), std::move((*by_plan)[p]), runs[run_of_plan[p]].sizes);
  }
  return by_run;
}

// FIT's row of ROW's placement, order and size, or null.
const ComparedSize* same_row(const CandidateFit& fit, const ComparedSize& row) {
  for (const ComparedCase& compared : fit.validation.cases)
    for (const ComparedSize& mine : compared.sizes)
      if (mine.bytes == row.bytes && mine.placement == row.placement && mine.order == row.order) return &mine;
  return nullptr;
}

// The screening (candidate_screening.h): CANDIDATES' fits at the screening sizes (RUNS[i + 1] made
// RESULTS[i + 1], RUNS[0] the baseline at every size) against the baseline's and PER_CALL's fits
// there. The finalists are simulated at the remaining sizes and added to DIAGNOSIS's ranking; the others
// are screened out, and so is a finalist that cannot explain the run whatever its remaining sizes give
// (least_final_score against JUDGED, the hardware at every judged size). False when a simulation failed.
bool screen_candidates(std::vector<CandidateFit> candidates, const std::vector<CandidateSimulation>& runs,
                       const std::vector<std::vector<CaseResult>>& results, const std::optional<CandidateFit>& per_call,
                       const CandidateFit& judged, const DiagnosisInputs& in, Diagnosis& diagnosis) {
  const std::uint64_t min_bytes = in.options.min_bytes;
  const CandidateFit baseline = fit_of(nullptr, at_sizes(results.front(), diagnosis.screening_sizes), in.grouped, in.options);
  leave_out_unchanged(candidates, baseline, diagnosis.left_out);
  double best_other = baseline.score;
  if (per_call) {
    CandidateFit screened_per_call = *per_call;
    screened_per_call.validation = with_call_cost(baseline.validation, per_call->extra_call_s, in.options);
    score(screened_per_call, min_bytes);
    best_other = std::min(best_other, screened_per_call.score);
  }
  std::vector<double> screened_scores;
  for (const CandidateFit& fit : candidates) screened_scores.push_back(fit.score);
  const std::vector<std::size_t> finalists = screening_finalists(screened_scores, best_other);
  std::vector<CandidateSimulation> rest;
  std::vector<std::size_t> run_of;  // the index into RUNS of each of REST
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (std::find(finalists.begin(), finalists.end(), i) == finalists.end() ||
        !clearly_below(least_final_score(candidates[i], judged, diagnosis.screening_sizes, min_bytes), judged.score)) {
      diagnosis.screened_out.push_back(candidates[i]);
      continue;
    }
    const auto run = std::find_if(runs.begin(), runs.end(), [&](const CandidateSimulation& r) {
      return r.standing && r.standing->candidate == candidates[i].candidate;
    });
    rest.push_back({run->standing, sizes_beyond(in.judged, diagnosis.screening_sizes)});
    run_of.push_back(static_cast<std::size_t>(run - runs.begin()));
  }
  if (rest.empty()) return true;
  // The finalists share the jobs, each split into as many parts as leaves none idle.
  const std::size_t jobs = static_cast<std::size_t>(std::max(1, in.options.jobs));
  const auto more = simulate_candidates(rest, std::vector<std::size_t>(rest.size(), (jobs + rest.size() - 1) / rest.size()), in);
  if (!more) return false;
  for (std::size_t k = 0; k < rest.size(); ++k)
    diagnosis.ranked.push_back(
        fit_of(rest[k].standing, joined_sizes(results[run_of[k]], (*more)[k], in.judged), in.grouped, in.options));
  return true;
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

double least_final_score(const CandidateFit& screened, const CandidateFit& baseline, const std::vector<std::uint64_t>& screening,
                         std::uint64_t min_bytes) {
  const auto rows = judged_rows(baseline.validation, min_bytes);
  std::vector<double> small;
  for (std::size_t i = 0; 2 * i < rows.size(); ++i) {
    const ComparedSize* mine = same_row(screened, *rows[i]);
    if (std::find(screening.begin(), screening.end(), rows[i]->bytes) == screening.end() || !mine) return 0;
    small.push_back(std::abs(std::log(mine->simulated_s / mine->measured_s)));
  }
  return small.empty() ? 0 : median(small) / 2;
}

double fitted_call_cost_s(const Validation& baseline, std::uint64_t min_bytes) {
  const auto rows = judged_rows(baseline, min_bytes);
  std::vector<double> gaps;
  for (std::size_t i = 0; i < rows.size() && i < 3; ++i) gaps.push_back(rows[i]->measured_s - rows[i]->simulated_s);
  return std::max(0.0, median(gaps));
}

namespace {

// BASELINE with each simulated time replaced by TIME(row), its summaries and regimes made again.
Validation with_simulated_times(Validation baseline, const std::function<double(const ComparedSize&)>& time,
                                const ValidationOptions& options) {
  std::vector<ComparedSize> every_size;
  baseline.regimes.clear();
  for (ComparedCase& compared : baseline.cases) {
    for (ComparedSize& row : compared.sizes) row.simulated_s = time(row);
    every_size.insert(every_size.end(), compared.sizes.begin(), compared.sizes.end());
    for (RegimeSplit& regime : split_by_regime(compared.sizes)) baseline.regimes.push_back(std::move(regime));
  }
  baseline.all = summarize(every_size, 0);
  baseline.judged = summarize(every_size, options.min_bytes);
  baseline.pass = baseline.judged.median_abs_error <= options.tolerance;
  return baseline;
}

}  // namespace

Validation with_call_cost(Validation baseline, double extra_s, const ValidationOptions& options) {
  return with_simulated_times(std::move(baseline), [&](const ComparedSize& row) { return row.simulated_s + extra_s; }, options);
}

std::optional<RateCeiling> fitted_rate_ceiling(const Validation& baseline, Collective collective, std::uint64_t min_bytes) {
  const auto rows = judged_rows(baseline, min_bytes);
  std::vector<double> measured, simulated;
  for (std::size_t i = rows.size() > 3 ? rows.size() - 3 : 0; i < rows.size(); ++i) {
    measured.push_back(busbw_GBps(rows[i]->bytes, rows[i]->measured_s, rows[i]->ranks, collective) * 1e9);
    simulated.push_back(busbw_GBps(rows[i]->bytes, rows[i]->simulated_s, rows[i]->ranks, collective) * 1e9);
  }
  if (measured.empty() || median(measured) >= kCeilingBelow * median(simulated)) return std::nullopt;
  return RateCeiling{median(measured), median(simulated)};
}

Validation with_rate_ceiling(Validation baseline, double ceiling_Bps, Collective collective, const ValidationOptions& options) {
  return with_simulated_times(
      std::move(baseline),
      [&](const ComparedSize& row) {
        return std::max(row.simulated_s, static_cast<double>(row.bytes) * busbw_factor(collective, row.ranks) / ceiling_Bps);
      },
      options);
}

const CandidateFit& Diagnosis::baseline() const {
  for (const CandidateFit& fit : ranked)
    if (!fit.candidate) return fit;
  throw std::logic_error("Diagnosis: no baseline");
}

const CandidateFit* Diagnosis::explaining() const {
  const CandidateFit& best = ranked.front();
  const double base = baseline().score;
  if (!best.candidate || !clearly_below(best.score, base)) return nullptr;
  if (best.candidate->id != MechanismId::rate_ceiling) return &best;
  for (const CandidateFit& fit : ranked)
    if (fit.candidate && !fitted_to_the_log(fit.candidate->id) && clearly_below(fit.score, base) && !clearly_below(best.score, fit.score))
      return &fit;
  return &best;
}

std::vector<const CandidateFit*> Diagnosis::alike() const {
  const CandidateFit* explained = explaining();
  const CandidateFit& named = explained ? *explained : ranked.front();
  std::vector<const CandidateFit*> tied;
  for (const CandidateFit& fit : ranked)
    if (&fit != &named && fit.candidate && std::abs(fit.score - named.score) <= kMatchesAlike) tied.push_back(&fit);
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
  const bool crosses_nodes = std::any_of(grouped.cases.begin(), grouped.cases.end(),
                                         [](const MeasuredCase& measured) { return measured.placement.nodes_used() >= 2; });
  const std::vector<CandidateStanding> standings = candidate_standings(*platform.topology, scenario.model, facts, crosses_nodes);
  const CandidatesInPlay candidates_in = candidates_in_play(standings, diagnosis.left_out);
  const std::vector<const CandidateStanding*>& in_play = candidates_in.simulated;
  // The baseline at every size, the candidates at the screening sizes (every judged size when there
  // is one candidate or too few sizes to screen at): one pool.
  const std::vector<std::uint64_t>& sizes = simulated.sizes;
  const std::vector<std::uint64_t> judged = diagnosis_sizes(sizes, options.min_bytes);
  if (judged.size() < sizes.size()) diagnosis.judged_sizes = judged;
  const DiagnosisInputs in{scenario, simulated, platform, grouped, options, judged};
  const std::vector<std::uint64_t> screen = in_play.size() >= 2 ? screening_sizes(judged, options.min_bytes) : judged;
  if (screen.size() < judged.size()) diagnosis.screening_sizes = screen;
  // The baseline's sizes split across the jobs as plain validation splits them; a candidate's
  // screening is one case, the candidates being the pool's parallelism.
  std::vector<CandidateSimulation> runs{{nullptr, sizes}};
  std::vector<std::size_t> parts{static_cast<std::size_t>(std::max(1, options.jobs))};
  for (const CandidateStanding* standing : in_play) {
    runs.push_back({standing, screen});
    parts.push_back(diagnosis.screening_sizes.empty() ? parts.front() : 1);
  }
  const auto results = simulate_candidates(runs, parts, in);
  if (!results) return std::nullopt;
  diagnosis.simulations = runs.size();
  const CandidateFit hardware = fit_of(nullptr, results->front(), grouped, options);
  diagnosis.validation = hardware.validation;
  const CandidateFit baseline = diagnosis.judged_sizes.empty() ? hardware : fit_of(nullptr, at_sizes(results->front(), judged), grouped, options);
  std::vector<CandidateFit> candidates;
  for (std::size_t i = 0; i < in_play.size(); ++i) candidates.push_back(fit_of(in_play[i], (*results)[i + 1], grouped, options));
  std::optional<CandidateFit> per_call_cost, rate_ceiling;
  if (candidates_in.per_call) per_call_cost = per_call_fit(baseline, *candidates_in.per_call, options);
  if (candidates_in.ceiling) rate_ceiling = rate_ceiling_fit(baseline, *candidates_in.ceiling, grouped.collective, facts, options);
  if (!diagnosis.screening_sizes.empty()) {
    if (!screen_candidates(std::move(candidates), runs, *results, per_call_cost, baseline, in, diagnosis)) return std::nullopt;
  } else {
    leave_out_unchanged(candidates, baseline, diagnosis.left_out);
    diagnosis.ranked = std::move(candidates);
  }
  diagnosis.ranked.insert(diagnosis.ranked.begin(), baseline);
  if (per_call_cost) diagnosis.ranked.push_back(std::move(*per_call_cost));
  if (rate_ceiling) diagnosis.ranked.push_back(std::move(*rate_ceiling));
  for (CandidateFit& fit : diagnosis.ranked) fit.validation.algorithm = simulated.algorithms.front();
  const auto by_score = [](const CandidateFit& a, const CandidateFit& b) { return a.score < b.score; };
  std::stable_sort(diagnosis.ranked.begin(), diagnosis.ranked.end(), by_score);
  std::stable_sort(diagnosis.screened_out.begin(), diagnosis.screened_out.end(), by_score);
  diagnosis.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return diagnosis;
}

}  // namespace ringsim
