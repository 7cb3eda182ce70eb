// `validate --explain` screens its candidates before simulating them at every size (run_diagnosis.h):
// each is simulated first at a few of the trace's smaller sizes, spread evenly (by rank) over the
// smallest ones that cost at most kScreeningShare of all of them (a size costing its bytes, at least
// size_parts.h's floor), which on doubling sizes leaves out the few largest, where the simulation
// spends its time. Only the candidates that match there about as well as the best fit so far (the
// hardware, the per-call cost or another candidate) are simulated at the remaining sizes. With C
// candidates of which F go on, the diagnosis costs about 1 + C * (screened share) + F plain validations.
#pragma once

#include <cstdint>
#include <vector>

namespace ringsim {

// The share of the sizes' total cost a candidate's screening may take.
inline constexpr double kScreeningShare = 1.0 / 6;
// A screening needs at least this many judged sizes (two in each half of fit_scores), and takes at
// most kScreeningSizes: a call of a few bytes still costs every step of its algorithm, so the many
// small sizes of a log (8 B to 1 MiB: half of nccl-tests' default range) would cost more than their bytes say.
inline constexpr std::size_t kScreeningJudgedSizes = 4;
inline constexpr std::size_t kScreeningSizes = 8;
// A candidate is simulated at every size when its screened score is within this of the best
// screened score (absolute, in ln units: run_diagnosis.h's kExplainsBy).
inline constexpr double kScreeningMargin = 0.02;

// A log of many sizes (512 sizes 1 MiB apart) has its candidates judged at most kDiagnosisSizes of
// its judged sizes: the ranking needs the curve's shape, not every point of it, and a candidate
// simulated at every such size would cost several plain validations.
inline constexpr std::size_t kDiagnosisSizes = 48;

// The sizes of SIZES (ascending) the diagnosis judges its candidates at: every size when at most
// kDiagnosisSizes are >= MIN_BYTES, else kDiagnosisSizes of those spread evenly by rank, the smallest
// and the largest included.
std::vector<std::uint64_t> diagnosis_sizes(const std::vector<std::uint64_t>& sizes, std::uint64_t min_bytes);

// Of the smallest of SIZES (ascending) that cost at most kScreeningShare of all of them, those >= MIN_BYTES
// (the judged ones), at most kScreeningSizes of them spread evenly by rank, the smallest and the
// largest included; all of SIZES when fewer than kScreeningJudgedSizes are judged (screening would
// judge on too few) or the cheapest are every size.
std::vector<std::uint64_t> screening_sizes(const std::vector<std::uint64_t>& sizes, std::uint64_t min_bytes);

// SIZES without those of SUBSET, in SIZES' order.
std::vector<std::uint64_t> sizes_beyond(const std::vector<std::uint64_t>& sizes, const std::vector<std::uint64_t>& subset);

// Which of the candidates' SCREENED scores pass: those within kScreeningMargin of the best of them
// and of BEST_OTHER (the best screened score of what needs no more simulation: the hardware, the
// per-call cost). Indices into SCREENED, ascending.
std::vector<std::size_t> screening_finalists(const std::vector<double>& screened, double best_other);

}  // namespace ringsim
