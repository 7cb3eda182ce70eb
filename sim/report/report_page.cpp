#include "report_page.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

constexpr const char* kStyle = R"(
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 60px; background: #fff; }
h1 { font-size: 1.7em; margin: 0.2em 0 0.3em; }
h2 { font-size: 1.25em; margin: 1.8em 0 0.4em; border-bottom: 1px solid #e3e3e3; padding-bottom: 0.2em; }
p.summary { color: #444; }
p.explain { color: #333; margin: 0.3em 0 0; max-width: 60em; }
p.omitted { color: #8a5a00; background: #fff8e6; border-left: 3px solid #e0a800; padding: 0.5em 0.8em; }
details { color: #555; font-size: 0.9em; }
pre.model { white-space: pre-wrap; background: #f4f4f4; padding: 0.6em; }
.plot { width: 100%; min-height: 260px; }
footer { margin-top: 3em; color: #777; font-size: 0.85em; }
table.ranking { border-collapse: collapse; margin: 1em 0 0.6em; font-size: 0.88em; width: 100%; }
table.ranking caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
table.ranking th, table.ranking td { border-bottom: 1px solid #e6e6e6; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
table.ranking td.number { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.ranking td.skipped { color: #777; font-style: italic; }
table.ranking td:nth-child(-n+2) { white-space: nowrap; }
p.question { font-size: 1.12em; margin: 0.4em 0 0.6em; padding: 0.5em 0.8em; background: #f2f6fb; border-left: 4px solid #0072B2; }
.label { font-weight: 700; color: #0072B2; margin-right: 0.3em; }
div.answers { margin: 0.5em 0; }
div.answers ul, div.findings ul { margin: 0.2em 0; padding-left: 1.2em; }
div.answers li { margin: 0.25em 0; }
div.findings { display: flex; gap: 24px; font-size: 0.86em; color: #333; line-height: 1.4; }
div.findings > div { flex: 1; }
div.findings h3 { font-size: 1em; margin: 0.4em 0 0.1em; }
div.findings li { margin: 0.15em 0; }
div.ring-case h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; border-left: 6px solid; padding-left: 0.4em; }
div.ring-row { display: flex; flex-wrap: wrap; gap: 16px; }
div.ring-row figure { margin: 0; flex: 1; min-width: 300px; }
div.ring-row figcaption { font-size: 0.85em; color: #333; max-width: 482px; }
svg.ring text.node { font-size: 12px; font-weight: 600; fill: #444; }
svg.ring text.rank { text-anchor: middle; fill: #222; }
svg.ring text.legend { font-size: 12px; }
svg.ring text.tag { font-size: 11.5px; font-weight: 600; fill: #fff; text-anchor: middle; }
)";

// Installed before the library so that its own errors (a truncated bundle) are caught too; errors
// logged with console.error count as well (headless Chromium does not print the console).
constexpr const char* kErrorCatcher = R"(
window.ringsimErrors = [];
window.addEventListener('error', function (e) { window.ringsimErrors.push(String(e.message || e)); });
window.addEventListener('unhandledrejection', function (e) { window.ringsimErrors.push('unhandled rejection: ' + String(e.reason)); });
(function (log) {
  console.error = function () {
    window.ringsimErrors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return log.apply(console, arguments);
  };
})(console.error);
)";

// Draws every figure, then records per plot how many traces it asked for and how many the DOM shows
// with something in them (a line or marker path for scatter traces, an image for heatmaps).
constexpr const char* kRenderScript = R"(
(function () {
  var status = { done: false, errors: window.ringsimErrors, plots: {}, boxes: {} };
  function box(element) {
    var r = element.getBoundingClientRect();
    return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
  }
  function finish() {
    document.querySelectorAll('[id^="lead-"], svg.nccl-channels').forEach(function (e) {
      status.boxes[e.id] = { box: box(e), text: e.textContent };
    });
    status.done = true;
    document.getElementById('ringsim-render-status').textContent = JSON.stringify(status);
    document.body.setAttribute('data-ringsim-status', 'done');
  }
  function drawn(gd) {
    var count = 0;
    gd.querySelectorAll('g.trace.scatter').forEach(function (g) {
      var marks = g.querySelectorAll('path.js-line, path.point, path.js-fill');
      for (var i = 0; i < marks.length; i++) if ((marks[i].getAttribute('d') || '').length > 2) { count++; return; }
    });
    gd.querySelectorAll('g.trace.bars').forEach(function (g) {
      var bars = g.querySelectorAll('g.point path');
      for (var i = 0; i < bars.length; i++) if ((bars[i].getAttribute('d') || '').length > 2) { count++; return; }
    });
    gd.querySelectorAll('g.hm image').forEach(function (img) {
      if ((img.getAttribute('href') || img.getAttribute('xlink:href') || '').length > 100) count++;
    });
    return count;
  }
  try {
    var figures = JSON.parse(document.getElementById('ringsim-figures').textContent);
    var drawings = figures.map(function (f) {
      return Plotly.newPlot(f.id, f.data, f.layout, { responsive: true, displaylogo: false }).then(function (gd) {
        var svg = gd.querySelector('svg.main-svg'), r = gd.getBoundingClientRect();
        status.plots[f.id] = { expected: f.data.length, drawn: drawn(gd),
                               svg: !!svg && svg.getBoundingClientRect().width > 0,
                               box: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height],
                               xticks: Array.prototype.map.call(gd.querySelectorAll('g.xtick text'), function (t) {
                                 return { text: t.textContent, box: box(t) };
                               }) };
      });
    });
    Promise.all(drawings).catch(function (e) { status.errors.push(String(e)); }).then(finish);
  } catch (e) {
    status.errors.push(String(e));
    finish();
  }
})();
)";

// Text inside <script>: "</script" would end the element early; "<\/" means the same to JavaScript
// (in strings and regular expressions) and to JSON (inside strings, the only place "</" can appear).
std::string script_safe(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    safe += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') safe += '\\';
  }
  return safe;
}

// Cells that hold a number (a rank, a time, a ratio) are right-aligned.
bool numeric_cell(const std::string& cell) {
  const auto digits = cell.find_first_not_of("0123456789.");
  if (digits == 0 || cell.empty()) return false;
  const std::string unit = digits == std::string::npos ? "" : cell.substr(digits);
  return unit.empty() || unit == "x" || unit == " s" || unit == " ms" || unit == " µs";
}

std::string table_html(const ReportTable& table) {
  std::string html = fmt::format("<table class=\"ranking\">\n<caption>{}</caption>\n<thead><tr>", html_escape(table.caption));
  for (const std::string& cell : table.header) html += fmt::format("<th>{}</th>", html_escape(cell));
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    if (row.size() == 1) {
      html += fmt::format("<tr><td class=\"skipped\" colspan=\"{}\">{}</td></tr>\n", table.header.size(), html_escape(row[0]));
      continue;
    }
    html += "<tr>";
    for (const std::string& cell : row)
      html += fmt::format("<td{}>{}</td>", numeric_cell(cell) ? " class=\"number\"" : "", html_escape(cell));
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

// The question, the answers and each variant's findings; ids "lead-..." are recorded by the render script.
std::string lead_html(const ReportLead& lead) {
  std::string html;
  if (!lead.question.empty())
    html += fmt::format("<p class=\"question\" id=\"lead-question\"><span class=\"label\">Question</span>{}</p>\n",
                        html_escape(lead.question));
  if (!lead.answers.empty()) {
    html += "<div class=\"answers\"><span class=\"label\">Answer</span>\n<ul>\n";
    for (std::size_t i = 0; i < lead.answers.size(); ++i) {
      // "4-3-1 block against 4-2-2 block: slower under ...": the pair compared in bold.
      const std::string& answer = lead.answers[i];
      const auto colon = answer.find(": ");
      html += colon == std::string::npos
                  ? fmt::format("<li id=\"lead-answer-{}\">{}</li>\n", i, html_escape(answer))
                  : fmt::format("<li id=\"lead-answer-{}\"><strong>{}</strong>{}</li>\n", i, html_escape(answer.substr(0, colon)),
                                html_escape(answer.substr(colon)));
    }
    html += "</ul></div>\n";
  }
  if (lead.findings.empty()) return html;
  if (lead.findings_folded) {
    std::size_t count = 0;
    for (const FindingGroup& group : lead.findings) count += group.sentences.size();
    html += fmt::format("<details class=\"findings\"><summary>The findings of ringsim run ({})</summary>\n", count);
  }
  html += "<div class=\"findings\">\n";
  for (std::size_t g = 0; g < lead.findings.size(); ++g) {
    const FindingGroup& group = lead.findings[g];
    html += fmt::format("<div id=\"lead-findings-{}\"><h3>{}</h3>\n<ul>\n", g,
                        group.variant.empty() ? "Findings" : fmt::format("Findings under {}", html_escape(group.variant)));
    for (const std::string& sentence : group.sentences) html += fmt::format("<li>{}</li>\n", html_escape(sentence));
    html += "</ul></div>\n";
  }
  return html + (lead.findings_folded ? "</div></details>\n" : "</div>\n");
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string escaped;
  for (char c : text) switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  return escaped;
}

std::string report_html(const ReportPage& page, std::string_view plotting_library) {
  std::string body;
  nlohmann::json figures = nlohmann::json::array();
  for (const ReportSection& section : page.sections) {
    body += fmt::format("<section>\n<h2>{}</h2>\n", html_escape(section.title));
    if (!section.figure && !section.html.empty()) {
      body += fmt::format("<p class=\"explain\" id=\"{}\">{}</p>\n{}", html_escape(section.id), html_escape(section.explanation),
                          section.html);
    } else if (section.figure) {
      body += fmt::format("<div class=\"plot\" id=\"{}\"></div>\n<p class=\"explain\">{}</p>\n", html_escape(section.id),
                          html_escape(section.explanation));
      figures.push_back({{"id", section.id}, {"data", section.figure->at("data")}, {"layout", section.figure->at("layout")}});
      for (const ReportTable& table : section.tables) body += table_html(table);
      body += section.html;
    } else {
      body += fmt::format("<p class=\"omitted\" id=\"{}\">{}</p>\n", html_escape(section.id), html_escape(section.explanation));
    }
    body += "</section>\n";
  }
  const std::string model =
      page.model.empty() ? "" : fmt::format("<details><summary>Model settings</summary><pre class=\"model\">{}</pre></details>\n",
                                            html_escape(page.model));
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
<script>{catcher}</script>
<script>{library}</script>
</head>
<body>
<main>
<h1>{title}</h1>
{lead}<p class="summary">{summary}</p>
{model}{body}<footer>Written by <code>ringsim report</code>; plots drawn with Plotly.js, inlined in this file (no network needed).</footer>
</main>
<pre id="ringsim-render-status" hidden></pre>
<script type="application/json" id="ringsim-figures">{figures}</script>
<script>{render}</script>
</body>
</html>
)",
                     fmt::arg("title", html_escape(page.title)), fmt::arg("style", kStyle),
                     fmt::arg("catcher", kErrorCatcher), fmt::arg("library", script_safe(plotting_library)),
                     fmt::arg("lead", lead_html(page.lead)), fmt::arg("summary", html_escape(page.summary)), fmt::arg("model", model), fmt::arg("body", body),
                     fmt::arg("figures", script_safe(figures.dump())), fmt::arg("render", kRenderScript));
}

}  // namespace ringsim
