#include "diagnosis_output.h"

#include "../common/units.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

std::string_view standing_word(LogStanding standing) {
  switch (standing) {
    case LogStanding::confirmed: return "confirmed by the log";
    case LogStanding::excluded: return "excluded by the log";
    case LogStanding::silent: break;
  }
  return "-";
}

// A score (median |ln(simulated / measured)|) as the percentage it is close to.
double percent(double score) { return score * 100; }

// "15.0 GB/s of bus bandwidth, 37% of the hardware's 40.1 GB/s; 7.5 GB/s per channel over the log's 2"
std::string ceiling_text(const CandidateFit& fit) {
  std::string text = fmt::format("{:.1f} GB/s of bus bandwidth, {:.0f}% of the hardware's {:.1f} GB/s", fit.busbw_ceiling_Bps / 1e9,
                                 100 * fit.busbw_ceiling_Bps / fit.hardware_busbw_Bps, fit.hardware_busbw_Bps / 1e9);
  if (fit.channels && *fit.channels > 0)
    text += fmt::format("; {:.2f} GB/s per channel over the log's {}", fit.busbw_ceiling_Bps / 1e9 / *fit.channels, *fit.channels);
  return text;
}

// What a candidate fitted to the log was fitted to: " (+79.4 us per call)", " (15.0 GB/s ...)", or "".
std::string fitted_text(const CandidateFit& fit) {
  if (fit.extra_call_s > 0) return fmt::format(" (+{:.1f} us per call)", fit.extra_call_s * 1e6);
  if (fit.busbw_ceiling_Bps > 0) return fmt::format(" ({})", ceiling_text(fit));
  return "";
}

void print_ranking(const Diagnosis& diagnosis) {
  fmt::print("#{:>5}  {:<22} {:>8} {:>8} {:>8}  {}\n", "rank", "candidate", "score", "smaller", "larger", "log");
  for (std::size_t i = 0; i < diagnosis.ranked.size(); ++i) {
    const CandidateFit& fit = diagnosis.ranked[i];
    const std::string extra = fitted_text(fit);
    fmt::print("#{:>5}  {:<22} {:>7.1f}% {:>7.1f}% {:>7.1f}%  {}{}{}\n", i + 1, fit.name(), percent(fit.score),
               percent(fit.small_score), percent(fit.large_score), standing_word(fit.log),
               fit.log_reason.empty() ? "" : ": " + fit.log_reason, extra);
  }
  for (const CandidateFit& fit : diagnosis.screened_out)
    fmt::print("#   screened out: {} ({:.1f}% at the {} screening sizes, smaller {:.1f}%, larger {:.1f}%)\n", fit.name(),
               percent(fit.score), diagnosis.screening_sizes.size(), percent(fit.small_score), percent(fit.large_score));
  for (const CandidateStanding& standing : diagnosis.left_out)
    fmt::print("#   not simulated: {} ({}: {})\n", standing.candidate->name,
               standing.applicable ? standing_word(standing.log) : "no change here", standing.reason);
}

// "4 simulations" or "4 simulations; 3 candidates screened at the 5 sizes up to 16MiB, 1 of them at all 6"
std::string simulations_text(const Diagnosis& diagnosis) {
  std::string text = fmt::format("{} simulations", diagnosis.simulations);
  if (!diagnosis.judged_sizes.empty())
    text += fmt::format("; the candidates judged at {} of the sizes, spread evenly from {} to {}", diagnosis.judged_sizes.size(),
                        format_bytes(diagnosis.judged_sizes.front()), format_bytes(diagnosis.judged_sizes.back()));
  if (diagnosis.screening_sizes.empty()) return text;
  const auto finalists = std::count_if(diagnosis.ranked.begin(), diagnosis.ranked.end(), [](const CandidateFit& fit) {
    return fit.candidate && !fitted_to_the_log(fit.candidate->id);
  });
  return text + fmt::format("; the candidates screened at the {} sizes up to {}, {} of them then at every {}size",
                            diagnosis.screening_sizes.size(), format_bytes(diagnosis.screening_sizes.back()), finalists,
                            diagnosis.judged_sizes.empty() ? "" : "judged ");
}

// The measured times against the hardware's and the explaining candidate's (or the best's), per size.
void print_curves(const CandidateFit& hardware, const CandidateFit& variant) {
  fmt::print("#{:>11} {:>13} {:>13} {:>13}   ({})\n", "size", "measured(us)", "hardware(us)", "variant(us)", variant.name());
  for (std::size_t c = 0; c < hardware.validation.cases.size(); ++c)
    for (std::size_t s = 0; s < hardware.validation.cases[c].sizes.size(); ++s) {
      const ComparedSize& row = hardware.validation.cases[c].sizes[s];
      fmt::print(" {:>11} {:>13.1f} {:>13.1f} {:>13.1f}\n", row.bytes, row.measured_s * 1e6, row.simulated_s * 1e6,
                 variant.validation.cases[c].sizes[s].simulated_s * 1e6);
    }
}

void print_sentences(const Diagnosis& diagnosis) {
  const CandidateFit& hardware = diagnosis.baseline();
  const CandidateFit* explaining = diagnosis.explaining();
  if (!explaining) {
    fmt::print("# explained by none: no candidate matches the measurement clearly better than the hardware as described "
               "(score {:.1f}%, best candidate {} at {:.1f}%).\n",
               percent(hardware.score), diagnosis.ranked.front().name(), percent(diagnosis.ranked.front().score));
    return;
  }
  const CandidateMechanism& mechanism = *explaining->candidate;
  fmt::print("# explained by {}: {}.\n", mechanism.name, mechanism.sentence);
  fmt::print("# The score (median |log error|, mean of the smaller and larger sizes) falls from {:.1f}% with the hardware as described to {:.1f}% with {}{}.\n",
             percent(hardware.score), percent(explaining->score), mechanism.change, fitted_text(*explaining));
  for (const CandidateFit* other : diagnosis.alike())
    fmt::print("# {} matches alike ({:.1f}%): the times cannot tell them apart; its INFO line does: {}.\n", other->name(),
               percent(other->score), other->candidate->confirm);
  fmt::print("# To confirm it: {}.\n", mechanism.confirm);
}

nlohmann::json fit_json(const CandidateFit& fit) {
  nlohmann::json row = {{"candidate", fit.name()},
                        {"change", fit.candidate ? std::string(fit.candidate->change) : "none"},
                        {"score", fit.score},
                        {"smaller_half_score", fit.small_score},
                        {"larger_half_score", fit.large_score},
                        {"log", standing_word(fit.log)},
                        {"median_abs_error", fit.validation.judged.median_abs_error}};
  if (!fit.log_reason.empty()) row["log_fact"] = fit.log_reason;
  if (fit.extra_call_s > 0) row["extra_call_s"] = fit.extra_call_s;
  if (fit.busbw_ceiling_Bps > 0) {
    row["busbw_ceiling_Bps"] = fit.busbw_ceiling_Bps;
    row["hardware_busbw_Bps"] = fit.hardware_busbw_Bps;
  }
  nlohmann::json times = nlohmann::json::array();
  for (const ComparedCase& compared : fit.validation.cases)
    for (const ComparedSize& size : compared.sizes) times.push_back({{"bytes", size.bytes}, {"simulated_s", size.simulated_s}});
  row["sizes"] = times;
  return row;
}

}  // namespace

void print_diagnosis(const Diagnosis& diagnosis, const ValidationOptions& options) {
  fmt::print("\n# diagnosis: the hardware as described and each candidate in play, simulated at the trace's sizes ({}, "
             "{:.1f} s); median |log error| over the smaller and the larger half of the sizes >= {}, and their mean:\n",
             simulations_text(diagnosis), diagnosis.wall_s, judged_from_text(options));
  print_ranking(diagnosis);
  const CandidateFit* explaining = diagnosis.explaining();
  print_curves(diagnosis.baseline(), explaining ? *explaining : diagnosis.ranked.front());
  print_sentences(diagnosis);
}

nlohmann::json diagnosis_json(const Diagnosis& diagnosis) {
  nlohmann::json ranking = nlohmann::json::array();
  for (const CandidateFit& fit : diagnosis.ranked) ranking.push_back(fit_json(fit));
  nlohmann::json left_out = nlohmann::json::array();
  for (const CandidateStanding& standing : diagnosis.left_out)
    left_out.push_back({{"candidate", standing.candidate->name}, {"applicable", standing.applicable},
                        {"log", standing_word(standing.log)}, {"reason", standing.reason}});
  nlohmann::json screened_out = nlohmann::json::array();
  for (const CandidateFit& fit : diagnosis.screened_out) screened_out.push_back(fit_json(fit));
  const CandidateFit* explaining = diagnosis.explaining();
  nlohmann::json alike = nlohmann::json::array();
  for (const CandidateFit* other : diagnosis.alike()) alike.push_back(other->name());
  return {{"ranking", ranking},
          {"left_out", left_out},
          {"screened_out", screened_out},
          {"screening_sizes", diagnosis.screening_sizes},
          {"judged_sizes", diagnosis.judged_sizes},
          {"explained_by", explaining ? nlohmann::json(explaining->name()) : nlohmann::json(nullptr)},
          {"matches_alike", alike},
          {"confirm", explaining ? nlohmann::json(std::string(explaining->candidate->confirm)) : nlohmann::json(nullptr)},
          {"wall_s", diagnosis.wall_s}};
}

}  // namespace ringsim
