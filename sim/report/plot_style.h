// What keeps the report's plots readable at any number of cases: one colour per algorithm in every
// plot, axes whose ticks are powers of 2 (sizes, "1 MiB") or of 10 (times, "10 ms") with their units,
// and figures cut into stacked panels of at most kMaxSeriesPerPanel series, each with its own legend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ringsim {

inline constexpr std::size_t kMaxSeriesPerPanel = 10;

// The algorithm's colour, the same in every plot: fixed per name of the algorithm catalog, and for a
// name outside it (a measured library's) a colour derived from the name alone.
std::string algorithm_colour(std::string_view algorithm);
// The algorithm's place in the catalog (legends list algorithms in this order); after it for others.
std::size_t algorithm_rank(std::string_view algorithm);

// The colour of the INDEX-th case (in order of first appearance) where one algorithm is compared
// across placements, and colour per algorithm would make every case alike.
std::string case_colour(std::size_t index);

// Marker symbol and dash of the I-th line of one colour in a panel, so that lines of one algorithm
// stay apart in the legend.
std::string line_symbol(std::size_t index);
std::string line_dash(std::size_t index);

// "64 KiB", "1 MiB", "250000000 B": a size as a tick label (a space before the unit).
std::string size_tick_label(std::uint64_t bytes);
// "10 µs", "1 ms", "16 ms", "2 s": a time in seconds as a tick label.
std::string time_tick_label(double seconds);

// Log axis of message sizes from LOWEST to HIGHEST bytes: ticks at powers of 2, at most 8 of them.
nlohmann::json size_axis(std::uint64_t lowest, std::uint64_t highest);
// Log axis of times in milliseconds (the plotted unit) from LOWEST to HIGHEST seconds: ticks at powers
// of 10, or at powers of 2 of one unit when fewer than two powers of 10 fall inside.
nlohmann::json log_time_axis(double lowest_s, double highest_s);

// One panel of a stacked figure: its title and traces (Plotly scatter objects).
struct Panel {
  std::string title;
  nlohmann::json traces = nlohmann::json::array();
  nlohmann::json xaxis = nlohmann::json::object();
  nlohmann::json yaxis = nlohmann::json::object();
};

// One figure of PANELS stacked top to bottom, each with its own axes and its own legend at its right.
nlohmann::json stacked_panels(const std::string& title, const std::vector<Panel>& panels);

}  // namespace ringsim
