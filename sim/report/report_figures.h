// The plots of `ringsim report`, as Plotly figures ({"data": [...], "layout": {...}}) with the
// sentence under each that says what it shows and what to look for. A plot whose data are absent is
// a section without a figure and with the reason instead.
#pragma once

#include "chunk_movement.h"
#include "../results/results_document.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

// A table shown under a section's plot: a caption, a header and rows of cells (plain text).
struct ReportTable {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // a row of one cell spans the table (a summary line)
};

struct ReportSection {
  std::string id;     // DOM id of the plot, "plot-time-vs-size"
  std::string title;
  std::string explanation;                // shown under the plot (or the reason it is left out)
  std::optional<nlohmann::json> figure;   // nullopt: left out, `explanation` says why
  std::vector<ReportTable> tables = {};   // shown after the explanation
  std::string html = {};                  // markup the report wrote (SVG drawings), after the tables
};

// "4-3-1 block ring": the case a row belongs to, as legends and tables name it.
std::string case_legend_name(const ResultRow& row);
// "4-3-1 block": the case as the findings of `ringsim run` name it (the ring's name left out).
std::string case_finding_name(const ResultRow& row);
// "4-3-1 block ring (8 ranks)", then " [VARIANT]" under a variant.
std::string case_label(const ResultRow& row);

// Sizes at which the "vs N" plots are drawn: SIZE when given (InputError naming FILE when the results
// have no entry of that size), else the largest size present for every rank count (nullopt if none).
std::optional<std::uint64_t> scaling_size(const ResultsDocument& results, std::optional<std::uint64_t> size,
                                          const std::string& file);

// a. time and busbw against size, one panel per variant and N: each case when at most 10, else the
// 4 fastest and 4 slowest at the largest size and a band over the others.
std::vector<ReportSection> size_sections(const ResultsDocument& results);
// b. time against N at one size, simulated points and each algorithm's closed form;
// c. the most bytes one rank sends and receives against N, in units of the size.
std::vector<ReportSection> scaling_sections(const ResultsDocument& results, std::optional<std::uint64_t> size);
// d. the ring's chunk movement: the chunk each rank receives per step, and what each rank holds.
std::vector<ReportSection> movement_sections(const ChunkMovement& movement);
// The heatmap of d: the chunk each rank receives at each of MOVEMENT's steps.
nlohmann::json received_chunks_figure(const ChunkMovement& movement, const std::string& title);
// e. allreduce as reduce-scatter then all-gather: the ring's two phases step by step, beside the
// simulated times of the allreduce and of its halves; empty when no ring case of the results runs
// all_reduce, reduce_scatter and all_gather (allreduce_halves.cpp).
std::vector<ReportSection> allreduce_halves_sections(const ResultsDocument& results);

}  // namespace ringsim
