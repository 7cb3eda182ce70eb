#include "case_progress.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
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
  // The rank program rewrites the file as it goes: anything unreadable shows no progress.
  try {
    JsonObjectReader fields = JsonValue(progress, file.string(), "").object();
    const auto count = [&](std::string_view key) { return fields.required(key).integer<std::uint64_t>(); };
    const auto size_index = count("size_index");
    std::string text = fmt::format("call {} of {}", count("call"), count("calls"));
    if (size_index < sizes.size())
      text += fmt::format(" ({}, size {} of {})", format_bytes(sizes[size_index]), size_index + 1, sizes.size());
    text += fmt::format(", step {}", count("step"));
    // null: no call of this size has finished yet / a real MPI (no simulated clock) / too early for a rate
    if (const auto of = fields.required("steps_in_call"); !of.is_null()) text += fmt::format(" of {}", of.integer<std::uint64_t>());
    if (const auto clock = fields.required("simulated_s"); !clock.is_null())
      text += fmt::format(", simulated {:.6g} s", clock.number());
    if (const auto rate = fields.required("steps_per_s"); !rate.is_null()) text += fmt::format(", {:.0f} steps/s", rate.number());
    return text;
  } catch (const InputError&) {
    return "";
  }
}

}  // namespace ringsim
