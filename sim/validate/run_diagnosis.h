// `ringsim validate --explain`: which mechanism makes a measured NCCL run slower than the hardware its
// topology describes. The hardware as described (the baseline) and each candidate still in play
// (candidate_mechanisms.h) are simulated as one pool of cases, `jobs` at a time: the baseline at the
// trace's sizes, the candidates at its smallest first and only those that match there about as well
// as the best at the others (candidate_screening.h). Each is scored by the median
// |ln(simulated / measured)| over the smaller half of the sizes at or above min_bytes and over the
// larger half, averaged (the latency-bound and the rate-bound sizes weigh alike), and ranked. A
// candidate explains the run when it beats the baseline clearly (kExplainsBelow).
#pragma once

#include "candidate_mechanisms.h"
#include "trace_validation.h"

#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// A candidate explains the run when its score is at most this share of the baseline's and at least
// kExplainsBy below it (a baseline within noise of the measurement leaves nothing to explain).
inline constexpr double kExplainsBelow = 0.75;
inline constexpr double kExplainsBy = 0.02;
// Candidates whose score is within this of the best (absolute, in ln units) match alike.
inline constexpr double kMatchesAlike = 0.01;

struct CandidateFit {
  const CandidateMechanism* candidate = nullptr;  // null: the hardware as described
  LogStanding log = LogStanding::silent;
  std::string log_reason;  // the INFO-line fact that confirms it, if any
  Validation validation;   // size by size against the measurement
  double extra_call_s = 0;  // per_call_cost: the cost added to every call
  // rate_ceiling: the bus bandwidth the run levels off at (B/s), the hardware's simulated one at the
  // same sizes, and the channels the log lists (to say the ceiling per channel).
  double busbw_ceiling_Bps = 0;
  double hardware_busbw_Bps = 0;
  std::optional<int> channels;
  double score = 0;         // the mean of the two halves' scores (fit_scores)
  double small_score = 0;   // the same over the smaller half of those sizes
  double large_score = 0;   // and over the larger half

  std::string name() const { return candidate ? std::string(candidate->name) : "hardware as described"; }
};

struct Diagnosis {
  std::vector<CandidateFit> ranked;         // the baseline and every candidate simulated at every judged size, best first
  std::vector<CandidateStanding> left_out;  // not applicable, or excluded by the log
  // The candidates simulated at the screening sizes only (candidate_screening.h), their fits there,
  // best first; the screening sizes (empty: every candidate was simulated at every size).
  std::vector<CandidateFit> screened_out;
  std::vector<std::uint64_t> screening_sizes;
  // The sizes the ranking judges (candidate_screening.h's diagnosis_sizes; empty: every size), and the
  // hardware's validation at every size, which validate prints.
  std::vector<std::uint64_t> judged_sizes;
  Validation validation;
  std::size_t simulations = 0;              // the baseline and the candidates simulated, screened out or not
  double wall_s = 0;                        // the simulations' wall time

  const CandidateFit& baseline() const;
  // The best candidate when it explains the run (kExplainsBelow, kExplainsBy), else null. A rate
  // ceiling fitted to the log matches any loss of rate, so a simulated mechanism that explains the run
  // and that the ceiling does not clearly beat (kExplainsBelow, kExplainsBy) names it instead.
  const CandidateFit* explaining() const;
  // The other candidates within kMatchesAlike of the explaining one (else the best): a tie the times
  // cannot break.
  std::vector<const CandidateFit*> alike() const;
};

// Median |ln(simulated / measured)| of VALIDATION's sizes >= MIN_BYTES in their smaller half (by size)
// and in their larger half; ALL is the mean of the two.
struct FitScores {
  double all = 0, small = 0, large = 0;
};
FitScores fit_scores(const Validation& validation, std::uint64_t min_bytes);

// The least score SCREENED (a candidate simulated at the SCREENING sizes only) can reach once simulated
// at every judged size: half the median of its smaller half (fit_scores; the larger half's median is
// at least 0) when every size of that half, as BASELINE at the judged sizes has it, was screened; else 0.
double least_final_score(const CandidateFit& screened, const CandidateFit& baseline, const std::vector<std::uint64_t>& screening,
                         std::uint64_t min_bytes);

// The cost per call that the hardware lacks at the smallest sizes: the median of measured - simulated
// over BASELINE's three smallest sizes >= MIN_BYTES (0 when the simulation is not faster there).
double fitted_call_cost_s(const Validation& baseline, std::uint64_t min_bytes);

// BASELINE with EXTRA_S added to every simulated time.
Validation with_call_cost(Validation baseline, double extra_s, const ValidationOptions& options);

// A run that levels off within this share of the simulated rate is at its hardware's rate: the NICs'
// efficiency that calibrate fits takes the rest.
inline constexpr double kCeilingBelow = 0.9;

// The bus bandwidth a run levels off at below its hardware's: the median measured busbw (nccl-tests'
// factor for COLLECTIVE) over BASELINE's three largest sizes >= MIN_BYTES, with the simulated one
// there. Nullopt unless the measured one is below kCeilingBelow of the simulated one.
struct RateCeiling {
  double busbw_Bps = 0;
  double hardware_busbw_Bps = 0;
};
std::optional<RateCeiling> fitted_rate_ceiling(const Validation& baseline, Collective collective, std::uint64_t min_bytes);

// BASELINE with every simulated time at least what BUSBW_BPS of bus bandwidth allows: a ceiling on the
// rate leaves the latency-bound sizes as they are and caps the rate-bound ones.
Validation with_rate_ceiling(Validation baseline, double busbw_Bps, Collective collective, const ValidationOptions& options);

// Diagnoses GROUPED against SCENARIO on PLATFORM (a compact topology; InputError on SimGrid XML) with
// the log's FACTS (null: none). Nullopt when a simulated case failed.
std::optional<Diagnosis> diagnose_run(const Scenario& scenario, const Platform& platform, const GroupedTrace& grouped,
                                      const NcclRunFacts* facts, const ValidationOptions& options);

}  // namespace ringsim
