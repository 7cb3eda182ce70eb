// `ringsim report`: a results JSON -> one self-contained HTML page of plots (Plotly.js inlined), so
// that the ring's bandwidth-optimality can be seen beside the other algorithms.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../common/units.h"
#include "../model/algorithm_registry.h"
#include "../report/diagnosis_chart.h"
#include "../report/report_page.h"
#include "../report/ring_bottlenecks.h"
#include "../report/scenario_answer.h"
#include "../report/topology_separation.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>

namespace ringsim {
namespace {

constexpr const char* kReportUsage = R"(usage: ringsim report RESULTS.json -o REPORT.html [--size SIZE] [--timeline FILE]
                      [--topology TOPOLOGY.json] [--validation VALIDATION.json]
       ringsim report --validation VALIDATION.json -o REPORT.html

Writes one self-contained HTML page (Plotly.js inlined: it opens without a network) from a results
JSON written by `ringsim run --json`, `ringsim sweep merge` or `ringsim measure --json`, and prints
the ranking of its cases. The page opens with the scenario's question and the findings `ringsim run`
recorded (the answers across variants first, then each variant's).
When the results compare one algorithm across placements or rank orders, the page answers that question:
  answer: each case's time over the first case's at the largest size, a panel per model variant, with
     the ring's bottleneck on hover and in a table;
  ring: each case's ring drawn over the nodes, per variant, the hops that share the busiest link
     direction in red with their count;
  a. time and bus bandwidth against message size, a colour per case; b and c (below) with several N.
Else it compares algorithms:
  ranking: per number of ranks N (and model variant) every case fastest first at one size, a table of
     the 5 fastest and 5 slowest with the ring's bottleneck each names (with --topology), and a plot;
  a. time and bus bandwidth against message size, a panel per N (and variant) of at most 10 lines: every
     case, or the 4 fastest and 4 slowest and a band spanning the others;
  b. time against the number of ranks N at one size, simulated points beside each algorithm's closed form;
  c. the most bytes one rank sends and receives against N, per algorithm (from the results' "traffic");
  d. the ring step by step: the chunk each rank receives at each step, and what each rank holds after it.
When a ring case ran all_reduce, reduce_scatter and all_gather (a scenario's "collectives"), the page
first shows the allreduce as reduce-scatter then all-gather: the three times against size with the sum of
the halves, and each half step by step.
A plot whose data the results do not hold (one size only, one N only, no traffic counts) is left out
with a sentence saying why.

options:
  -o, --output FILE  the HTML page to write (written atomically)
  --size SIZE        message size of the ranking and plots b and c (default: the largest size
                     present for every N)
  --topology FILE    the topology (or SimGrid XML platform) the results were simulated on: names the
                     bottleneck of each ring case, as `ringsim analyze` does (default: the topology
                     the results name, as `ringsim run --json` records it, relative to RESULTS.json)
  --validation FILE  the diagnosis of a measured run, as `ringsim validate ... --explain --json FILE`
                     writes it: the page opens with its measured busbw against size beside the
                     hardware's as described and the explaining candidate's (alone, without results)
  --timeline FILE    draw plot d from the steps `ringsim run --timeline FILE` recorded (the ring case
                     with the fewest ranks) instead of the ring's schedule

The plotting library is read from $RINGSIM_PLOTLY_JS, else from the file the build was configured
with (tools/report-js/node_modules/..., fetched by tools/bootstrap.sh).
)";

// Without a ring of 2 to 16 ranks in the results, the schedule is drawn for this many.
constexpr int kLargestDrawnRing = 16;
constexpr int kDefaultDrawnRing = 8;

std::filesystem::path plotting_library_path() {
  if (const char* path = std::getenv("RINGSIM_PLOTLY_JS")) return path;
  return RINGSIM_PLOTLY_JS;
}

std::string read_plotting_library() {
  const auto path = plotting_library_path();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty())
    throw InputError(fmt::format("{}: Plotly.js not found; fetch it with tools/bootstrap.sh "
                                 "(npm ci --prefix tools/report-js) or set RINGSIM_PLOTLY_JS",
                                 path.string()));
  return text.str();
}

ChunkMovement chunk_movement(const ResultsDocument& results, const std::optional<std::string>& timeline) {
  if (timeline) {
    if (auto movement = movement_from_timeline(load_json_file(*timeline), *timeline)) return *movement;
    throw InputError(fmt::format("{}: the timeline holds no ring case to draw (--timeline)", *timeline));
  }
  int best = 0;
  for (const auto& entry : results.rows)
    if (names_algorithm(entry.algorithm, AlgorithmId::ring) && (best == 0 || better_ring_to_draw(entry.ranks, best))) best = entry.ranks;
  return ring_schedule_movement(best >= 2 && best <= kLargestDrawnRing ? best : kDefaultDrawnRing);
}

// The topology the bottlenecks are named on: --topology, else the one the results name (relative to
// their file); NOTE says which, or how to give one.
struct ReportTopology {
  std::optional<std::string> file;
  std::string note;
};

ReportTopology topology_of(const ResultsDocument& results, const std::string& results_file,
                           const std::optional<std::string>& option) {
  if (option) return {option, fmt::format("Bottlenecks: the ring's embedding in {} (ringsim analyze).", *option)};
  if (results.topology.empty()) return {std::nullopt, "Give --topology TOPOLOGY.json to name each ring's bottleneck."};
  const std::filesystem::path recorded(results.topology);
  const std::string file = recorded.is_absolute() ? recorded.string()
                                                  : (std::filesystem::path(results_file).parent_path() / recorded).lexically_normal().string();
  if (!std::filesystem::exists(file))
    return {std::nullopt, fmt::format("The results name the topology {}, which is not at {}: give --topology TOPOLOGY.json "
                                      "to name each ring's bottleneck.",
                                      results.topology, file)};
  return {file, fmt::format("Bottlenecks: the ring's embedding in {}, the topology the results name (ringsim analyze).",
                            std::filesystem::path(file).filename().string())};
}

// The largest size every case was simulated at (the findings' size), when there is one.
std::optional<std::uint64_t> largest_common_size(const ResultsDocument& results) {
  std::map<std::string, std::set<std::uint64_t>> sizes_of_case;
  for (const auto& row : results.rows) sizes_of_case[case_label(row)].insert(row.bytes);
  std::optional<std::uint64_t> largest;
  for (auto bytes : sizes_of_case.begin()->second) {
    const bool everywhere = std::all_of(sizes_of_case.begin(), sizes_of_case.end(), [&](const auto& c) { return c.second.contains(bytes); });
    if (everywhere) largest = bytes;
  }
  return largest;
}

std::string summary(const ResultsDocument& results, std::optional<std::uint64_t> size, bool teaching) {
  std::set<std::string> algorithms, cases;
  std::set<int> ranks;
  std::set<std::uint64_t> sizes;
  for (const auto& entry : results.rows) {
    algorithms.insert(entry.algorithm), ranks.insert(entry.ranks), sizes.insert(entry.bytes);
    cases.insert(entry.placement + " " + entry.order + " " + entry.algorithm);
  }
  std::string ranks_text, sizes_text;
  for (int n : ranks) ranks_text += (ranks_text.empty() ? "" : ", ") + std::to_string(n);
  for (auto bytes : sizes) sizes_text += (sizes_text.empty() ? "" : ", ") + format_bytes(bytes);
  const std::string counts = fmt::format("{} results ({}): {} {} over {} {}, N = {} ranks, sizes {}.", results.rows.size(),
                                         results.kind, cases.size(), cases.size() == 1 ? "case" : "cases", algorithms.size(),
                                         algorithms.size() == 1 ? "algorithm" : "algorithms", ranks_text, sizes_text);
  if (!teaching) return counts;
  return fmt::format("{}{} Allreduce algorithms side by side: what each costs as the message and the number of ranks grow, "
                     "how many bytes each rank moves, and why the ring is bandwidth-optimal.",
                     counts, size ? fmt::format(" Plots against N are at S = {}.", format_bytes(*size)) : "");
}

// The page of a results file (and the ranking it prints): the scenario's answer, or the algorithms compared.
struct ResultsPage {
  ReportPage page;
  std::optional<std::string> ranking_text;
};

ResultsPage results_page(const std::string& file, std::optional<std::uint64_t> size, const ParsedArguments& args) {
  ResultsDocument results = ResultsDocument::load(file);
  separate_topologies(results);  // a sweep over several topologies: plots and rankings per topology
  const auto scaling = scaling_size(results, size, file);
  const ChunkMovement movement = chunk_movement(results, args.value("--timeline"));

  const auto topology = topology_of(results, file, args.value("--topology"));
  std::optional<RingCases> rings;
  if (topology.file) rings.emplace(*topology.file, results, file);
  const BottleneckNamer namer = rings ? ring_bottleneck_namer(*rings) : BottleneckNamer{};
  const std::uint64_t ranked_size = scaling.value_or(results.rows.back().bytes);
  const auto ranking = rank_cases(results, ranked_size, namer);

  ReportPage page;
  page.title = results.scenario.empty() ? "ringsim report" : fmt::format("ringsim report: {}", results.scenario);
  page.lead = report_lead(results);
  if (!results.model.is_null()) page.model = results.model.dump(2);
  // A ring case that ran all_reduce and its two halves is taught first: the allreduce as reduce-scatter + all-gather.
  page.sections = allreduce_halves_sections(results);
  if (compares_one_algorithm(results)) {
    // One algorithm across placements: the page answers the scenario's question; the algorithms'
    // teaching panels (the ranking's dots, the ring step by step) belong to pages that compare algorithms.
    page.summary = summary(results, std::nullopt, false);
    const std::uint64_t bytes = largest_common_size(results).value_or(ranked_size);
    ReportSection answer = answer_section(results, bytes, rings ? &*rings : nullptr, topology.note);
    ReportSection pictures = ring_pictures_section(results, bytes, rings ? &*rings : nullptr, topology.note);
    // NCCL's channels over the NICs say what binds each case: on NCCL's pages they come first, on the first screen.
    if (runs_nccl_only(results)) std::swap(answer, pictures);
    page.sections.push_back(std::move(answer));
    page.sections.push_back(std::move(pictures));
    std::set<int> ranks;
    for (const auto& row : results.rows) ranks.insert(row.ranks);
    for (auto sections : {size_sections(results), ranks.size() > 1 ? scaling_sections(results, scaling) : std::vector<ReportSection>{}})
      page.sections.insert(page.sections.end(), sections.begin(), sections.end());
  } else {
    page.summary = summary(results, scaling, true);
    page.lead.findings_folded = true;
    page.sections.push_back(ranking_section(ranking, topology.note));
    for (auto sections : {size_sections(results), scaling_sections(results, scaling), movement_sections(movement)})
      page.sections.insert(page.sections.end(), sections.begin(), sections.end());
  }
  return {std::move(page), compares_placements(ranking) ? std::optional{ranking_text(ranking, topology.note)} : std::nullopt};
}

// The page of a diagnosis alone (--validation without results).
ReportPage diagnosis_page(const DiagnosisChart& chart) {
  ReportPage page;
  page.title = chart.scenario.empty() ? "ringsim report: diagnosis" : fmt::format("ringsim report: diagnosis of {}", chart.scenario);
  page.summary = fmt::format("{} sizes of {} measured, against the simulation of the hardware as described and of {}.", chart.bytes.size(),
                             chart.case_name, chart.variant ? chart.variant->name : "no candidate");
  return page;
}

}  // namespace

int report_command(int argc, char** argv) {
  const ParsedArguments args =
      parse_arguments(argc, argv, 1, "report", {"-o", "--output", "--size", "--timeline", "--topology", "--validation"}, {});
  if (args.has("--help")) {
    std::fputs(kReportUsage, stdout);
    return 0;
  }
  const auto validation = args.value("--validation");
  if (args.positional.size() > 1 || (args.positional.empty() && !validation))
    throw UsageError("ringsim report: expected exactly one RESULTS.json (or --validation FILE alone)");
  const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
  if (!output) throw UsageError("ringsim report: -o REPORT.html is required");
  check_output_file("-o", *output);
  std::optional<std::uint64_t> size;
  if (auto text = args.value("--size")) size = bytes_option("--size", *text);

  const std::optional<DiagnosisChart> diagnosis = validation ? std::optional{read_diagnosis_chart(*validation)} : std::nullopt;
  ResultsPage built = args.positional.empty() ? ResultsPage{diagnosis_page(*diagnosis), std::nullopt}
                                              : results_page(args.positional[0], size, args);
  // The diagnosis answers "why is this run slower than its hardware?": it comes first.
  if (diagnosis) built.page.sections.insert(built.page.sections.begin(), diagnosis_section(*diagnosis));
  const std::string library = read_plotting_library();
  write_file_atomically(*output, report_html(built.page, library));
  if (built.ranking_text) std::fputs(built.ranking_text->c_str(), stdout);
  fmt::print("ringsim report: wrote {} ({} plots)\n", *output,
             std::count_if(built.page.sections.begin(), built.page.sections.end(), [](const auto& s) { return s.figure.has_value(); }));
  return 0;
}

}  // namespace ringsim
