// Plot d of the report: the ring's chunk movement as two heatmaps.
#include "report_figures.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {
namespace {

using nlohmann::json;

json rank_labels(int ranks) {
  json labels = json::array();
  for (int r = 0; r < ranks; ++r) labels.push_back(fmt::format("rank {}", r));
  return labels;
}

json heatmap_layout(const std::string& title, const std::string& x_title, int ranks) {
  return {{"title", {{"text", title}}},
          {"xaxis", {{"title", {{"text", x_title}}}, {"type", "category"}}},
          // Rank 0 on top, as in a table.
          {"yaxis", {{"autorange", "reversed"}, {"type", "category"}}},
          {"height", std::max(260, 60 + 34 * ranks)},
          {"margin", {{"t", 50}, {"l", 70}}}};
}

json matrix(const std::vector<std::vector<int>>& rows) {
  json z = json::array();
  for (const auto& row : rows) z.push_back(row);
  return z;
}

// A slider position that restyles the heatmap's z (Plotly.restyle takes one array per trace).
json slider_step(const std::string& label, const std::vector<std::vector<int>>& state) {
  json update = json::object();
  update["z"] = json::array({matrix(state)});
  return {{"label", label}, {"method", "restyle"}, {"args", json::array({update})}};
}

}  // namespace

nlohmann::json received_chunks_figure(const ChunkMovement& movement, const std::string& title) {
  const auto n = static_cast<std::size_t>(movement.ranks);
  json z = json::array(), x = json::array();
  for (const auto& step : movement.steps) x.push_back(step.label);
  for (std::size_t r = 0; r < n; ++r) {
    json row = json::array();
    for (const auto& step : movement.steps)
      row.push_back(step.received_chunk[r] < 0 ? json() : json(step.received_chunk[r]));
    z.push_back(row);
  }
  json trace = {{"type", "heatmap"},
                {"z", z},
                {"x", x},
                {"y", rank_labels(movement.ranks)},
                {"zmin", 0},
                {"zmax", movement.ranks - 1},
                {"colorscale", "Viridis"},
                {"texttemplate", "%{z}"},
                {"colorbar", {{"title", {{"text", "chunk"}}}}},
                {"hovertemplate", "%{y}, %{x}: receives chunk %{z}<extra></extra>"}};
  return json{{"data", json::array({trace})}, {"layout", heatmap_layout(title, "step", movement.ranks)}};
}

namespace {

ReportSection received_chunks(const ChunkMovement& movement) {
  return {"plot-ring-received", fmt::format("The ring step by step: which chunk each rank receives (N = {})", movement.ranks),
          fmt::format("Each cell is the chunk (segment 0..N−1 of the buffer, S/N bytes) that a rank receives from "
                      "its left neighbour at that step; steps from {}. Follow a colour along a diagonal: the same "
                      "chunk travels round the ring, one hop per step. In scatter-reduce it gathers one more rank's "
                      "contribution at every hop; in allgather the finished chunk is copied onward. Every rank sends "
                      "and receives one chunk per step, 2(N−1) steps in all, so every link is busy at every step "
                      "and no rank carries more than the others.",
                      movement.source),
          received_chunks_figure(movement, "Chunk received at each step")};
}

ReportSection held_contributions(const ChunkMovement& movement) {
  json x = json::array();
  for (int c = 0; c < movement.ranks; ++c) x.push_back(fmt::format("chunk {}", c));
  // The slider's positions: the start, then after each step; it opens after the last reducing step.
  json slider_steps = json::array();
  slider_steps.push_back(slider_step("start", movement.initial));
  for (const auto& step : movement.steps) slider_steps.push_back(slider_step(step.label, step.contributions));
  const int shown = movement.last_reduce_step + 1;
  const auto& shown_state = shown == 0 ? movement.initial : movement.steps[static_cast<std::size_t>(shown - 1)].contributions;
  json trace = {{"type", "heatmap"},
                {"z", matrix(shown_state)},
                {"x", x},
                {"y", rank_labels(movement.ranks)},
                {"zmin", 1},
                {"zmax", movement.ranks},
                {"colorscale", "Blues"},
                {"reversescale", true},  // darker = more ranks summed
                {"texttemplate", "%{z}"},
                {"colorbar", {{"title", {{"text", "ranks summed"}}}}},
                {"hovertemplate", "%{y}, %{x}: sum of %{z} ranks<extra></extra>"}};
  json layout = heatmap_layout("What each rank holds (drag the slider)", "chunk", movement.ranks);
  layout["height"] = layout["height"].get<int>() + 90;
  layout["sliders"] = json::array({{{"active", shown},
                                    {"steps", slider_steps},
                                    {"currentvalue", {{"prefix", "after: "}}},
                                    {"pad", {{"t", 50}}}}});
  return {"plot-ring-held", "What each rank holds after each step",
          "How many ranks' contributions each rank's copy of each chunk sums, after the step chosen with the "
          "slider (it opens after the last scatter-reduce step). At the start every cell is 1. After the N−1 "
          "scatter-reduce steps every rank holds exactly one chunk summed over all N ranks, a different one per "
          "rank: the reduction is spread evenly, each rank adding S/N per step. The allgather then copies the "
          "finished chunks round until every cell reads N.",
          json{{"data", json::array({trace})}, {"layout", layout}}};
}

}  // namespace

std::vector<ReportSection> movement_sections(const ChunkMovement& movement) {
  if (movement.steps.empty())
    return {{"plot-ring-received", "The ring step by step",
             fmt::format("Left out: {} hold no steps to draw.", movement.source), std::nullopt}};
  return {received_chunks(movement), held_contributions(movement)};
}

}  // namespace ringsim
