// `ringsim report`: a results JSON -> one self-contained HTML page of plots (Plotly.js inlined), so
// that the ring's bandwidth-optimality can be seen beside the other algorithms.
#include "../common/atomic_file.h"
#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../common/units.h"
#include "../report/report_page.h"
#include "../report/ring_bottlenecks.h"
#include "../report/topology_separation.h"
#include "../results/results_output.h"
#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>

namespace ringsim {
namespace {

constexpr const char* kReportUsage = R"(usage: ringsim report RESULTS.json -o REPORT.html [--size SIZE] [--timeline FILE]
                      [--topology TOPOLOGY.json]

Writes one self-contained HTML page (Plotly.js inlined: it opens without a network) from a results
JSON written by `ringsim run --json`, `ringsim sweep merge` or `ringsim measure --json`, and prints
the ranking of its cases:
  ranking: per number of ranks N (and model variant) every case fastest first at one size, a table of
     the 5 fastest and 5 slowest with the ring's bottleneck each names (with --topology), and a plot;
  a. time and bus bandwidth against message size, a panel per N (and variant) of at most 10 lines: every
     case, or the 4 fastest and 4 slowest and a band spanning the others;
  b. time against the number of ranks N at one size, simulated points beside each algorithm's closed form;
  c. the most bytes one rank sends and receives against N, per algorithm (from the results' "traffic");
  d. the ring step by step: the chunk each rank receives at each step, and what each rank holds after it.
A plot whose data the results do not hold (one size only, one N only, no traffic counts) is left out
with a sentence saying why.

options:
  -o, --output FILE  the HTML page to write (written atomically)
  --size SIZE        message size of the ranking and plots b and c (default: the largest size
                     present for every N)
  --topology FILE    the topology (or SimGrid XML platform) the results were simulated on: names the
                     bottleneck of each ring case in the ranking, as `ringsim analyze` does
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
    if (entry.algorithm == "ring" && (best == 0 || better_ring_to_draw(entry.ranks, best))) best = entry.ranks;
  return ring_schedule_movement(best >= 2 && best <= kLargestDrawnRing ? best : kDefaultDrawnRing);
}

std::string summary(const ResultsDocument& results, std::optional<std::uint64_t> size) {
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
  return fmt::format("{} results ({}): {} {} over {} {}, N = {} ranks, sizes {}.{} Allreduce algorithms side by "
                     "side: what each costs as the message and the number of ranks grow, how many bytes each "
                     "rank moves, and why the ring is bandwidth-optimal.",
                     results.rows.size(), results.kind, cases.size(), cases.size() == 1 ? "case" : "cases",
                     algorithms.size(), algorithms.size() == 1 ? "algorithm" : "algorithms", ranks_text, sizes_text,
                     size ? fmt::format(" Plots against N are at S = {}.", format_bytes(*size)) : "");
}

}  // namespace

int report_command(int argc, char** argv) {
  const ParsedArguments args = parse_arguments(argc, argv, 1, "report", {"-o", "--output", "--size", "--timeline", "--topology"}, {});
  if (args.has("--help")) {
    std::fputs(kReportUsage, stdout);
    return 0;
  }
  if (args.positional.size() != 1) throw UsageError("ringsim report: expected exactly one RESULTS.json");
  const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
  if (!output) throw UsageError("ringsim report: -o REPORT.html is required");
  check_output_file("-o", *output);
  std::optional<std::uint64_t> size;
  if (auto text = args.value("--size")) size = bytes_option("--size", *text);

  const std::string file = args.positional[0];
  ResultsDocument results = ResultsDocument::load(file);
  separate_topologies(results);  // a sweep over several topologies: plots and rankings per topology
  const auto scaling = scaling_size(results, size, file);
  const ChunkMovement movement = chunk_movement(results, args.value("--timeline"));
  const std::string library = read_plotting_library();

  const std::string bottleneck_note =
      args.value("--topology")
          ? fmt::format("Bottlenecks: the ring's embedding in {} (ringsim analyze).", *args.value("--topology"))
          : "Give --topology TOPOLOGY.json to name each ring's bottleneck.";
  const BottleneckNamer namer =
      args.value("--topology") ? ring_bottleneck_namer(*args.value("--topology"), results, file) : BottleneckNamer{};
  const auto ranking = rank_cases(results, scaling.value_or(results.rows.back().bytes), namer);

  ReportPage page;
  page.title = results.scenario.empty() ? "ringsim report" : fmt::format("ringsim report: {}", results.scenario);
  page.summary = summary(results, scaling);
  if (!results.model.is_null()) page.model = results.model.dump(2);
  page.sections.push_back(ranking_section(ranking, bottleneck_note));
  for (auto sections : {size_sections(results), scaling_sections(results, scaling), movement_sections(movement)})
    page.sections.insert(page.sections.end(), sections.begin(), sections.end());
  write_file_atomically(*output, report_html(page, library));
  if (compares_placements(ranking)) std::fputs(ranking_text(ranking, bottleneck_note).c_str(), stdout);
  fmt::print("ringsim report: wrote {} ({} plots)\n", *output,
             std::count_if(page.sections.begin(), page.sections.end(), [](const auto& s) { return s.figure.has_value(); }));
  return 0;
}

}  // namespace ringsim
