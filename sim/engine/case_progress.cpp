#include "case_progress.h"

#include "../common/input_error.h"
#include "../common/units.h"

#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>

namespace ringsim {

double progress_after_s() {
  const char* text = std::getenv("RINGSIM_PROGRESS_AFTER");
  if (text == nullptr) return 3.0;
  double seconds = 0;
  const char* end = text + std::char_traits<char>::length(text);
  if (auto [stop, ec] = std::from_chars(text, end, seconds); ec != std::errc() || stop != end || seconds < 0)
    throw InputError(fmt::format("RINGSIM_PROGRESS_AFTER={}: expected a number of seconds >= 0", text));
  return seconds;
}

std::string read_case_progress(const std::filesystem::path& file, const std::vector<std::uint64_t>& sizes) {
  std::ifstream in(file);
  const nlohmann::json progress = nlohmann::json::parse(in, nullptr, false);
  if (progress.is_discarded() || !progress.is_object()) return "";
  try {
    const auto size_index = progress.at("size_index").get<std::size_t>();
    std::string text = fmt::format("call {} of {}", progress.at("call").get<std::uint64_t>(),
                                   progress.at("calls").get<std::uint64_t>());
    if (size_index < sizes.size())
      text += fmt::format(" ({}, size {} of {})", format_bytes(sizes[size_index]), size_index + 1, sizes.size());
    text += fmt::format(", step {}", progress.at("step").get<std::uint64_t>());
    // null: no call of this size has finished yet / a real MPI (no simulated clock) / too early for a rate
    if (const auto& of = progress.at("steps_in_call"); !of.is_null()) text += fmt::format(" of {}", of.get<std::uint64_t>());
    if (const auto& clock = progress.at("simulated_s"); !clock.is_null())
      text += fmt::format(", simulated {:.6g} s", clock.get<double>());
    if (const auto& rate = progress.at("steps_per_s"); !rate.is_null()) text += fmt::format(", {:.0f} steps/s", rate.get<double>());
    return text;
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

}  // namespace ringsim
