// ringsim's own results JSON ("kind": "simulated" or "measured", README "Results"). Keys this
// version does not know are ignored, as the schema promises to newer writers.
#include "../trace_readers.h"

#include "../../common/input_error.h"
#include "../../common/json_input.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ringsim {

bool detect_ringsim_results(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && text[start] == '{' && text.find("\"kind\"") != std::string_view::npos &&
         text.find("\"results\"") != std::string_view::npos;
}

MeasuredTrace read_ringsim_results(std::string_view text, const std::string& file) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    const std::size_t byte = std::min(json_error_byte(text, e), text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(byte), '\n'));
    throw InputError(fmt::format("{}:{}: malformed results JSON", file, line));
  }
  auto fail = [&](const std::string& path, const std::string& message) { throw_input_error(file, path, message); };
  if (!document.is_object() || !document.contains("results") || !document["results"].is_array())
    fail("/results", "a ringsim results file has a \"results\" array");
  MeasuredTrace trace;
  trace.format = "ringsim";
  trace.time_meaning = "time_s: median over iterations of the slowest rank's time";
  for (std::size_t i = 0; i < document["results"].size(); ++i) {
    const auto& row = document["results"][i];
    const std::string path = fmt::format("/results/{}", i);
    auto text_of = [&](const char* key) {
      if (!row.contains(key) || !row[key].is_string()) fail(path + "/" + key, "expected a string");
      return row[key].get<std::string>();
    };
    if (!row.contains("bytes") || !row["bytes"].is_number_unsigned()) fail(path + "/bytes", "expected a byte count");
    if (!row.contains("time_s") || !row["time_s"].is_number() || row["time_s"].get<double>() <= 0)
      fail(path + "/time_s", "expected a positive time in seconds");
    if (!row.contains("ranks") || !row["ranks"].is_number_unsigned()) fail(path + "/ranks", "expected a rank count");
    if (row.value("algorithm", std::string("ring")) != "ring") continue;  // the validator compares the ring
    trace.points.push_back({row["bytes"].get<std::uint64_t>(), row["time_s"].get<double>(), text_of("placement"),
                            text_of("order"), row["ranks"].get<int>(), 0});
  }
  if (trace.points.empty()) fail("/results", "no ring results");
  return trace;
}

}  // namespace ringsim
