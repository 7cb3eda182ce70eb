#include "scenario_answer.h"

#include "../analysis/scenario_findings.h"
#include "../common/units.h"
#include "../model/algorithm_registry.h"
#include "plot_style.h"
#include "ring_picture.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

using nlohmann::json;

constexpr int kPictureWidth = 482;  // two drawings side by side in the page's column
constexpr std::size_t kMostDrawnCases = 8;  // a merged sweep's hundreds of cases would bury the page

// The cases of RESULTS in order of first appearance, and for each the row of each variant at BYTES.
struct AnsweredCase {
  std::string name;                                    // "4-3-1 cyclic"
  std::map<std::string, const ResultRow*> of_variant;  // "" without variants
};

std::vector<std::string> variant_names(const ResultsDocument& results) {
  std::vector<std::string> names;
  for (const VariantModel& variant : results.variants) names.push_back(variant.name);
  if (names.empty()) names.push_back("");
  return names;
}

std::vector<AnsweredCase> answered_cases(const ResultsDocument& results, std::uint64_t bytes) {
  std::vector<AnsweredCase> cases;
  std::map<std::string, std::size_t> index;
  for (const ResultRow& row : results.rows) {
    const std::string name = case_finding_name(row);
    auto [it, added] = index.try_emplace(name, cases.size());
    if (added) cases.push_back({name, {}});
    if (row.bytes == bytes) cases[it->second].of_variant[row.variant] = &row;
  }
  return cases;
}

const ResultRow* row_of(const AnsweredCase& answered, const std::string& variant) {
  const auto it = answered.of_variant.find(variant);
  return it == answered.of_variant.end() ? nullptr : it->second;
}

std::string bottleneck_of(const RingCases* rings, const ResultRow& row) {
  return rings == nullptr ? "" : ring_bottleneck_namer(*rings)(row);
}

// "the network stack of rank 7 (node2-gpu0): its send and its receive compete (2 ring edges at 10 Gbit/s)"
// cut into lines of about WIDTH characters at spaces, for a tooltip.
std::string wrapped(const std::string& text, std::size_t width) {
  std::string out;
  std::size_t line = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line > 0 && line + word.size() + 1 > width) out += "<br>", line = 0;
    else if (line > 0) out += ' ', ++line;
    out += word, line += word.size();
    start = end + 1;
  }
  return out;
}

std::string variant_title(const std::string& variant) { return variant.empty() ? "" : fmt::format(" [{}]", variant); }

}  // namespace

ReportLead report_lead(const ResultsDocument& results) {
  ReportLead lead;
  lead.question = results.question;
  for (const std::string& finding : results.findings) {
    FindingParts parts = finding_parts(finding);
    if (parts.answer) {
      lead.answers.push_back(std::move(parts.sentence));
      continue;
    }
    auto group = std::find_if(lead.findings.begin(), lead.findings.end(), [&](const auto& g) { return g.variant == parts.variant; });
    if (group == lead.findings.end()) group = lead.findings.insert(lead.findings.end(), {parts.variant, {}});
    group->sentences.push_back(std::move(parts.sentence));
  }
  return lead;
}

bool runs_nccl_only(const ResultsDocument& results) {
  return std::all_of(results.rows.begin(), results.rows.end(), [](const ResultRow& row) { return nccl_request_of(row.algorithm).has_value(); });
}

bool compares_one_algorithm(const ResultsDocument& results) {
  std::set<std::string> algorithms, cases, placements;
  for (const ResultRow& row : results.rows)
    algorithms.insert(row.algorithm), cases.insert(case_finding_name(row)), placements.insert(row.placement + " " + row.order);
  // NCCL's algorithms (nccl and the ones it picks among) across placements answer a placement question too.
  return (algorithms.size() == 1 || (runs_nccl_only(results) && placements.size() > 1)) && cases.size() > 1;
}

namespace {

// The answer's chart being built: a bar panel per variant side by side, and the table's rows.
struct AnswerChart {
  const std::vector<AnsweredCase>& cases;
  const RingCases* rings;
  json data = json::array();
  json layout = json::object();
  json annotations = json::array();
  std::vector<std::vector<std::string>> rows = {};
  double highest = 1;

  // The bars of VARIANT, the V-th of COUNT panels.
  void add_panel(const std::string& variant, std::size_t v, std::size_t count) {
    const std::string& reference = cases.front().name;
    const ResultRow* base = row_of(cases.front(), variant);
    json x = json::array(), y = json::array(), text = json::array(), hover = json::array(), colours = json::array();
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const ResultRow* row = row_of(cases[c], variant);
      if (row == nullptr || base == nullptr) continue;
      const double ratio = row->time_s / base->time_s;
      const std::string bottleneck = bottleneck_of(rings, *row);
      highest = std::max(highest, ratio);
      x.push_back(cases[c].name), y.push_back(ratio), colours.push_back(case_colour(c));
      text.push_back(fmt::format("{:.2f}×", ratio));
      hover.push_back(fmt::format("<b>{}</b>{}<br>{} = {:.2f}× {}<br>bottleneck: {}", cases[c].name, variant_title(variant),
                                  format_time(row->time_s), ratio, reference,
                                  bottleneck.empty() ? "not named (no topology)" : wrapped(bottleneck, 48)));
      rows.push_back({cases[c].name, variant.empty() ? "-" : variant, format_time(row->time_s), fmt::format("{:.2f}x", ratio),
                      bottleneck.empty() ? "-" : bottleneck});
    }
    const std::string axis = v == 0 ? "" : std::to_string(v + 1);
    data.push_back({{"type", "bar"}, {"name", variant.empty() ? "time" : variant}, {"x", x}, {"y", y},
                    {"xaxis", "x" + axis}, {"yaxis", "y" + axis}, {"text", text}, {"textposition", "outside"},
                    {"cliponaxis", false}, {"textfont", {{"size", 14}}}, {"hovertext", hover}, {"hoverinfo", "text"},
                    {"marker", {{"color", colours}, {"line", {{"color", "#333"}, {"width", 1}}}}}});
    const double gap = 0.06, width = (1.0 - gap * (count - 1)) / count, left = v * (width + gap);
    layout["xaxis" + axis] = {{"domain", {left, left + width}}, {"anchor", "y" + axis}, {"tickfont", {{"size", 13}}},
                              {"automargin", true}};
    layout["yaxis" + axis] = {{"anchor", "x" + axis}, {"rangemode", "tozero"}, {"gridcolor", "#e6e6e6"}};
    if (v > 0) layout["yaxis" + axis]["matches"] = "y";
    if (!variant.empty())
      annotations.push_back({{"text", fmt::format("<b>{}</b>", variant)}, {"xref", "paper"}, {"yref", "paper"},
                             {"x", left + width / 2}, {"y", 1.0}, {"yanchor", "bottom"}, {"showarrow", false},
                             {"font", {{"size", 15}}}});
  }

  json figure() {
    layout["yaxis"]["title"] = {{"text", fmt::format("time ÷ {}'s", cases.front().name)}};
    layout["yaxis"]["range"] = {0, highest * 1.18};
    layout["annotations"] = annotations;
    layout["showlegend"] = false;
    layout["height"] = 340;
    layout["margin"] = {{"l", 64}, {"r", 16}, {"t", 48}, {"b", 40}};  // the titles clear of Plotly's buttons
    layout["bargap"] = 0.3;
    layout["hoverlabel"] = {{"align", "left"}};
    return {{"data", data}, {"layout", layout}};
  }
};

}  // namespace

ReportSection answer_section(const ResultsDocument& results, std::uint64_t bytes, const RingCases* rings,
                             const std::string& bottleneck_note) {
  const auto cases = answered_cases(results, bytes);
  const auto variants = variant_names(results);
  const std::string& reference = cases.front().name;
  AnswerChart chart{cases, rings};
  for (std::size_t v = 0; v < variants.size(); ++v) chart.add_panel(variants[v], v, variants.size());
  ReportSection section{"plot-answer", fmt::format("Each case's time against {} at {}", reference, format_bytes(bytes)), "",
                        chart.figure(), {}};
  section.explanation = fmt::format(
      "Each bar is a case's median time (slowest rank) at {} divided by {}'s under the same model{}; bars of one "
      "colour are one case. Hover a bar for its time and the ring's bottleneck: the link direction that the most "
      "ring edges share for their bandwidth, as ringsim analyze names it; the table lists them all.",
      format_bytes(bytes), reference, variants.size() > 1 ? ", a panel per variant" : "");
  section.tables.push_back({fmt::format("Each case's time at {} and the ring's bottleneck. {}", format_bytes(bytes), bottleneck_note),
                            {"case", "variant", "time", fmt::format("× {}", reference), "bottleneck (the busiest link direction)"},
                            std::move(chart.rows)});
  return section;
}

ReportSection ring_pictures_section(const ResultsDocument& results, std::uint64_t bytes, const RingCases* rings,
                                    const std::string& bottleneck_note) {
  ReportSection section{"ring-over-nodes", runs_nccl_only(results) ? "NCCL's channels over the nodes and their NICs" : "The ring over the nodes", "", std::nullopt, {}};
  if (rings == nullptr) {
    section.explanation = fmt::format("The ring of each case is drawn over the topology's nodes when the topology is "
                                      "known. {}",
                                      bottleneck_note);
    return section;
  }
  const auto cases = answered_cases(results, bytes);
  const auto variants = variant_names(results);
  std::string html;
  for (std::size_t c = 0; c < std::min(cases.size(), kMostDrawnCases); ++c) {
    html += fmt::format("<div class=\"ring-case\">\n<h3 style=\"border-left-color:{}\">{}</h3>\n<div class=\"ring-row\">\n",
                        case_colour(c), html_escape(cases[c].name));
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const ResultRow* row = row_of(cases[c], variants[v]);
      const std::string caption_variant = variants[v].empty() ? "" : fmt::format("<b>{}</b>: ", html_escape(variants[v]));
      if (const NcclChannelsCase* nccl = row == nullptr ? nullptr : rings->nccl_of(*row)) {
        html += fmt::format("<figure>\n{}<figcaption>{}{}</figcaption>\n</figure>\n",
                            nccl_channels_svg(*nccl, rings->layout(), fmt::format("channels-{}-{}", c, v),
                                              variants.size() > 1 ? kPictureWidth : 2 * kPictureWidth, case_colour(c)),
                            caption_variant, html_escape(nccl->description));
        continue;
      }
      const RingCase* ring = row == nullptr ? nullptr : rings->of(*row);
      if (ring == nullptr) continue;
      html += fmt::format("<figure>\n{}<figcaption>{}{}</figcaption>\n</figure>\n",
                          ring_picture_svg(*ring, rings->layout(), fmt::format("ring-{}-{}", c, v),
                                           variants.size() > 1 ? kPictureWidth : 2 * kPictureWidth, case_colour(c)),
                          caption_variant, html_escape(ring->description));
    }
    html += "</div>\n</div>\n";
  }
  section.explanation =
      "Each box is a node and each circle a GPU with its rank; each arrow is one hop of the ring, rank r to r+1 (above "
      "the ranks inside a node, below the boxes between nodes). The red arrows are the hops that share the busiest "
      "link direction: at each of the ring's 2(N−1) steps they split its bandwidth, so the ring runs that many times "
      "slower than one hop alone would. Hover an arrow for the links it crosses.";
  if (runs_nccl_only(results))
    section.explanation =
        "A box per node, its NICs along the bottom, NIC k at the same place in every box (a rail); a line per ring channel "
        "from NIC to NIC; red: through the NIC that binds (shaded). Hover a line for its NICs.";
  if (cases.size() > kMostDrawnCases)
    section.explanation += fmt::format(" The first {} of the {} cases are drawn.", kMostDrawnCases, cases.size());
  section.html = std::move(html);
  return section;
}

}  // namespace ringsim
