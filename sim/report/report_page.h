// The self-contained HTML page of `ringsim report`: the plotting library inlined, the figures as
// JSON, and a small script that draws them and records what it drew for headless checks.
#pragma once

#include "report_figures.h"

#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

// The findings of one variant ("" without variants), as `ringsim run` printed them.
struct FindingGroup {
  std::string variant;
  std::vector<std::string> sentences;
};

// What the page opens with: the scenario's question and its answer in words (each may be empty).
struct ReportLead {
  std::string question;
  std::vector<std::string> answers;   // which model makes each difference (scenarios with variants)
  std::vector<FindingGroup> findings;
  bool findings_folded = false;  // shown when unfolded: the page's own plots come first
};

struct ReportPage {
  std::string title;         // "ringsim report: locality-4-2-2-vs-4-3-1"
  ReportLead lead;           // shown first
  std::string summary;       // one paragraph under the title (plain text)
  std::string model;         // the model settings, shown verbatim (plain text; may be empty)
  std::vector<ReportSection> sections;
};

// The page. PLOTTING_LIBRARY is the text of Plotly's bundle. After drawing, the page's element
// #ringsim-render-status holds JSON {"done": true, "errors": [...], "plots": {id: {"expected": n,
// "drawn": m, "svg": bool}}} and <body> gets data-ringsim-status="done".
std::string report_html(const ReportPage& page, std::string_view plotting_library);

// TEXT safe inside an HTML element or attribute.
std::string html_escape(std::string_view text);

}  // namespace ringsim
