#include "scenario_findings.h"

#include "../common/units.h"
#include "../model/algorithm_registry.h"
#include "alltoall_load.h"
#include "nccl_case_explanation.h"
#include "ring_analysis.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>

namespace ringsim {
namespace {

// Differences below this are model noise, not a finding.
constexpr double kSameWithin = 0.03;

// How findings name a case (case_results.h): "4-3-1 block", "32x1 block", "4-2-2 block hierarchical".
std::string case_label(const CaseResult& result) { return case_name(result.spec, CaseNaming::finding); }

const SizeResult* size_at(const CaseResult& result, std::uint64_t bytes) {
  for (const SizeResult& size : result.sizes)
    if (size.bytes == bytes) return &size;
  return nullptr;
}

// "busiest rank sends 31.00 and receives 31.00 buffers" from the counted traffic, when there is one.
std::string traffic_words(const CaseResult& result, std::uint64_t bytes) {
  const SizeResult* size = size_at(result, bytes);
  if (size == nullptr || !size->traffic) return "";
  return fmt::format("busiest rank sends {:.2f} and receives {:.2f} buffers", size->traffic->max_rank_sent_bytes / double(bytes),
                     size->traffic->max_rank_recv_bytes / double(bytes));
}

double time_at(const CaseResult& result, std::uint64_t bytes) {
  const SizeResult* size = size_at(result, bytes);
  return size == nullptr ? 0 : size->median_s();
}

struct BottleneckWords {
  std::string mechanism, description;
};

// The ring allreduce's bottleneck in words under the variant's model, when the analysis applies; an
// alltoall's from its pair flows (alltoall_load.h).
std::optional<BottleneckWords> bottleneck_of(const CaseResult& result, TopologyRoutes* routes) {
  if (result.spec.collective == Collective::alltoall && result.ranks > 1 && !result.spec.ring.nodes.empty())
    return BottleneckWords{"NIC sharing", describe_alltoall_load(busiest_alltoall_nic(result.spec))};
  if (routes == nullptr || !names_algorithm(result.spec.algorithm, AlgorithmId::ring) || result.ranks < 2 ||
      result.spec.collective != Collective::all_reduce)
    return std::nullopt;
  const std::vector<std::string>& hosts = result.spec.ring.hosts;
  const RingEmbedding ring = embed_ring(*routes, hosts);
  const Bottleneck bottleneck = find_bottleneck(ring);
  return BottleneckWords{bottleneck_mechanism(ring, bottleneck, hosts), describe_bottleneck(ring, bottleneck, hosts)};
}

// The cases CASE is compared with, each naming both: the first algorithm on the same placement (the
// algorithm's effect), and the same algorithm on the first earlier placement of the same order (the
// placement's effect), each of the same collective; when neither exists, the first case (the order's effect).
std::vector<std::size_t> references_of(const std::vector<CaseResult>& results, std::size_t index) {
  const SimulationCase& spec = results[index].spec;
  std::vector<std::size_t> references;
  for (std::size_t j = 0; j < index; ++j)
    if (results[j].spec.placement.ranks_per_node == spec.placement.ranks_per_node && results[j].spec.collective == spec.collective &&
        results[j].spec.placement.order == spec.placement.order && results[j].spec.algorithm != spec.algorithm) {
      references.push_back(j);
      break;
    }
  for (std::size_t j = 0; j < index; ++j)
    if (results[j].spec.placement.order == spec.placement.order && results[j].spec.algorithm == spec.algorithm &&
        results[j].spec.collective == spec.collective && results[j].spec.placement.ranks_per_node != spec.placement.ranks_per_node) {
      references.push_back(j);
      break;
    }
  if (references.empty()) references.push_back(0);
  return references;
}

// The one case the what-if answers compare CASE with: its first reference.
std::size_t reference_of(const std::vector<CaseResult>& results, std::size_t index) { return references_of(results, index).front(); }

std::string format_duration(double seconds) {
  return seconds >= 1 ? fmt::format("{:.3f} s", seconds) : fmt::format("{:.3f} ms", seconds * 1e3);
}

// A variant's findings start with its name in brackets; the answers across variants start with kAnswer.
std::string prefix(const VariantRun& run) { return run.name.empty() ? "" : fmt::format("[{}] ", run.name); }
constexpr std::string_view kAnswer = "Answer, ";

// What explains that OTHER takes RATIO times BASE's time: their bottlenecks, else their traffic.
std::string explanation(const CaseResult& other, const CaseResult& base, double ratio, TopologyRoutes* routes,
                        std::uint64_t bytes) {
  // Two alltoalls: their pair flows per NIC say which NIC limits each and why the placements differ or not.
  if (other.spec.collective == Collective::alltoall && base.spec.collective == Collective::alltoall && other.ranks > 1 &&
      base.ranks > 1 && !other.spec.ring.nodes.empty() && !base.spec.ring.nodes.empty())
    return compare_alltoall_loads(other.spec, case_label(other), base.spec, case_label(base), ratio, bytes);
  const auto words = bottleneck_of(other, routes);
  const auto base_words = bottleneck_of(base, routes);
  if (words && base_words) {
    const bool same_time = std::abs(ratio - 1) < kSameWithin;
    const bool same_bottleneck = words->description == base_words->description;
    if (same_time && same_bottleneck) return fmt::format(": the same; both are limited by {}.", words->description);
    if (same_time)
      return fmt::format(": the same; it is limited by {}, {} by {}.", words->description, case_label(base), base_words->description);
    if (same_bottleneck) {
      // Same bottleneck, another time: the ranks' share of the buffer differs, 2(N-1)/N.
      std::string sentence = fmt::format(": the same bottleneck, {}", words->description);
      if (other.ranks != base.ranks)
        sentence += fmt::format("; with {} ranks instead of {}, each moves 2(N-1)/N = {:.2f} buffers instead of {:.2f}", other.ranks,
                                base.ranks, 2.0 * (other.ranks - 1) / other.ranks, 2.0 * (base.ranks - 1) / base.ranks);
      return sentence + ".";
    }
    return fmt::format("{} {}{}: its bottleneck is {}; {}'s is {}.", ratio > 1 ? " because of" : ", faster; without",
                       ratio > 1 ? words->mechanism : base_words->mechanism,
                       base.spec.placement.order != other.spec.placement.order ? " (from the rank order)" : "",
                       words->description, case_label(base), base_words->description);
  }
  if (const std::string traffic = traffic_words(other, bytes); !traffic.empty() && other.spec.algorithm != base.spec.algorithm) {
    const std::string base_traffic = traffic_words(base, bytes);
    return fmt::format(": its {}{}.", traffic, base_traffic.empty() ? "" : fmt::format(" ({}: {})", case_label(base), base_traffic));
  }
  return ".";
}

// One variant's findings: each case against its reference case (a lone case: its bottleneck).
void add_run_findings(const VariantRun& run, std::uint64_t bytes, std::vector<std::string>& findings) {
  const std::string size = format_bytes(bytes);
  if (run.results.size() == 1)
    if (const auto words = bottleneck_of(run.results.front(), run.routes.get()))
      findings.push_back(fmt::format("{}{} at {}: {}; bottleneck: {}.", prefix(run), case_label(run.results.front()), size,
                                     format_duration(time_at(run.results.front(), bytes)), words->description));
  for (std::size_t i = 1; i < run.results.size(); ++i)
    for (std::size_t reference : references_of(run.results, i)) {
      const CaseResult& other = run.results[i];
      const CaseResult& base = run.results[reference];
      const double ratio = time_at(other, bytes) / time_at(base, bytes);
      findings.push_back(fmt::format("{}{} takes {:.2f}x the time of {} at {}", prefix(run), case_label(other), ratio,
                                     case_label(base), size) +
                         explanation(other, base, ratio, run.routes.get(), bytes));
    }
}

// The ring allreduce against its halves, when the run holds all three on one placement: the allreduce's
// scatter-reduce phase is a reduce-scatter and its allgather phase an all-gather (docs/collectives.md).
void add_halves_findings(const VariantRun& run, std::uint64_t bytes, std::vector<std::string>& findings) {
  const auto find = [&](const CaseResult& like, Collective collective) -> const CaseResult* {
    for (const CaseResult& result : run.results)
      if (result.spec.collective == collective && names_algorithm(result.spec.algorithm, AlgorithmId::ring) &&
          result.spec.placement.ranks_per_node == like.spec.placement.ranks_per_node && result.spec.placement.order == like.spec.placement.order)
        return &result;
    return nullptr;
  };
  for (const CaseResult& all_reduce : run.results) {
    if (all_reduce.spec.collective != Collective::all_reduce || !names_algorithm(all_reduce.spec.algorithm, AlgorithmId::ring)) continue;
    const CaseResult* scatter = find(all_reduce, Collective::reduce_scatter);
    const CaseResult* gather = find(all_reduce, Collective::all_gather);
    if (scatter == nullptr || gather == nullptr) continue;
    const double whole = time_at(all_reduce, bytes), halves = time_at(*scatter, bytes) + time_at(*gather, bytes);
    if (whole <= 0 || halves <= 0) continue;
    findings.push_back(fmt::format("{}{} allreduce at {}: {} against reduce_scatter {} + all_gather {} = {} ({:.3f}x the allreduce): "
                                   "its scatter-reduce half is the reduce-scatter and its allgather half the all-gather, "
                                   "(N-1)/N of the buffer each way per rank each.",
                                   prefix(run), case_label(all_reduce), format_bytes(bytes), format_duration(whole),
                                   format_duration(time_at(*scatter, bytes)), format_duration(time_at(*gather, bytes)),
                                   format_duration(halves), halves / whole));
  }
}

// A time of NCCL's model or of the simulation, in the unit that reads best: "34.1 us", "3.871 ms".
std::string short_duration(double seconds) { return seconds < 1e-3 ? fmt::format("{:.1f} us", seconds * 1e6) : format_duration(seconds); }

// One sentence per band of NCCL's choice of each NCCL case: what NCCL's model ranks first and against
// what, which term of its time dominates, the resource that binds, and the simulated time (against the
// case's reference, naming it).
void add_nccl_findings(const VariantRun& run, std::vector<std::string>& findings) {
  const ModelSettings& model = run.nccl_model ? *run.nccl_model : run.scenario.model;
  for (std::size_t i = 0; i < run.results.size(); ++i) {
    const CaseResult& result = run.results[i];
    const auto explanation = explain_nccl_case(result, model);
    if (!explanation) continue;
    for (const NcclBand& band : explanation->bands) {
      const std::string sizes = band.from_bytes == band.to_bytes ? fmt::format("at {}", format_bytes(band.to_bytes))
                                                                 : fmt::format("{}-{}", format_bytes(band.from_bytes), format_bytes(band.to_bytes));
      std::string sentence = fmt::format("{}{} {}: {}", prefix(run), case_label(result), sizes, nccl_choice_text(band.choice));
      sentence += band.runner_up ? fmt::format(", NCCL's model {} against {}'s {}", short_duration(band.choice.prediction.time_s),
                                               nccl_choice_text(*band.runner_up), short_duration(band.runner_up->prediction.time_s))
                                 : fmt::format(", NCCL's model {}", short_duration(band.choice.prediction.time_s));
      sentence += fmt::format("; {}-bound ({} {:.0f}% of NCCL's time); binds: {}", band.latency_bound ? "latency" : "bandwidth",
                              band.latency_bound ? "latency" : "size / bandwidth", band.bound_share * 100, nccl_binding_text(band.binding));
      if (band.simulated_s > 0) {
        sentence += fmt::format("; simulated {}", short_duration(band.simulated_s));
        // The placement's effect where there is one (references_of lists it last), as the question asks.
        const CaseResult& base = run.results[references_of(run.results, i).back()];
        if (i > 0)
          if (const double base_time = time_at(base, band.to_bytes); base_time > 0)
            sentence += fmt::format(", {:.2f}x {}'s", band.simulated_s / base_time, case_label(base));
      }
      findings.push_back(sentence + ".");
    }
  }
}

// Which model produces case I's difference from its reference: the mechanism, when variants differ only in it.
std::string answer(const std::vector<VariantRun>& runs, std::size_t i, std::uint64_t bytes) {
  std::vector<std::string> slower, same;
  std::optional<BottleneckWords> mechanism;
  const std::size_t reference = reference_of(runs.front().results, i);
  for (const VariantRun& run : runs) {
    if (i >= run.results.size()) continue;
    const double ratio = time_at(run.results[i], bytes) / time_at(run.results[reference], bytes);
    if (ratio > 1 + kSameWithin) {
      slower.push_back(fmt::format("{} ({:.2f}x)", run.name, ratio));
      if (!mechanism) mechanism = bottleneck_of(run.results[i], run.routes.get());
    } else {
      same.push_back(fmt::format("{} ({:.2f}x)", run.name, ratio));
    }
  }
  const std::string pair = fmt::format("{} against {}", case_label(runs.front().results[i]), case_label(runs.front().results[reference]));
  if (slower.empty()) return fmt::format("{}{}: not slower under any model ({}).", kAnswer, pair, fmt::join(same, ", "));
  return fmt::format("{}{}: slower under {}{}{}.", kAnswer, pair, fmt::join(slower, ", "),
                     same.empty() ? "" : fmt::format(", not under {}", fmt::join(same, ", ")),
                     mechanism ? fmt::format("; the mechanism is {}: {}", mechanism->mechanism, mechanism->description) : "");
}

}  // namespace

std::vector<std::string> scenario_findings(const Scenario& scenario, const std::vector<VariantRun>& runs) {
  std::vector<std::string> findings;
  if (runs.empty() || runs.front().results.empty()) return findings;
  const std::uint64_t bytes = scenario.sizes.back();
  for (const VariantRun& run : runs) {
    add_run_findings(run, bytes, findings);
    add_halves_findings(run, bytes, findings);
    add_nccl_findings(run, findings);
  }
  if (runs.size() > 1)
    for (std::size_t i = 1; i < runs.front().results.size(); ++i) findings.push_back(answer(runs, i, bytes));
  return findings;
}

FindingParts finding_parts(const std::string& finding) {
  if (finding.starts_with(kAnswer)) return {"", finding.substr(kAnswer.size()), true};
  const auto end = finding.find("] ");
  if (finding.starts_with('[') && end != std::string::npos) return {finding.substr(1, end - 1), finding.substr(end + 2), false};
  return {"", finding, false};
}

std::string variant_table(const std::vector<VariantRun>& runs) {
  if (runs.size() < 2) return "";
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  const CaseResult& first = runs.front().results.front();
  const std::uint64_t bytes = first.sizes.back().bytes;
  fmt::format_to(it, "# What-if at {}: each case's median time per variant, speed-up and time saved per call against \"{}\"\n",
                 format_bytes(bytes), runs.front().name);
  fmt::format_to(it, "#{:>29} {:>14} {:>10} {:>14}\n", "variant", "time", "speed-up", "saved");
  for (std::size_t c = 0; c < runs.front().results.size(); ++c) {
    fmt::format_to(it, "#  {}\n", case_label(runs.front().results[c]));
    const double reference = time_at(runs.front().results[c], bytes);
    for (const VariantRun& run : runs) {
      const double time = time_at(run.results[c], bytes);
      const double saved = std::abs(reference - time) < 1e-6 * reference ? 0 : reference - time;
      fmt::format_to(it, " {:>29} {:>14} {:>9.2f}x {:>14}\n", run.name, format_duration(time), reference / time, format_duration(saved));
    }
  }
  return fmt::to_string(out);
}

}  // namespace ringsim
