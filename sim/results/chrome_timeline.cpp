#include "chrome_timeline.h"

#include "../common/input_error.h"
#include "../common/json_input.h"
#include "../common/units.h"
#include "../rank/rank_report.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ringsim {
namespace {

constexpr std::size_t kValuesPerEvent = kEventFields.size();

// Value I of an event (the events file holds every value as a double) as a whole number from MIN to
// MAX: a cast of a double out of the integer's range is undefined behaviour.
template <typename T>
T whole_number(const std::vector<JsonValue>& values, std::size_t i, double min, double max_exclusive) {
  const double value = values[i].number();
  if (!(value >= min && value < max_exclusive) || value != std::trunc(value))
    values[i].fail(fmt::format("{} {} is not a whole number from {} to {}", kEventFields[i % kValuesPerEvent],
                               describe_json(values[i].json()), min, max_exclusive - 1));
  return static_cast<T>(value);
}

std::vector<std::string> strings(const JsonValue& value) {
  if (!value.json().is_array()) value.fail(fmt::format("expected an array of strings, found {}", describe_json(value.json())));
  std::vector<std::string> texts;
  for (const JsonValue& text : value.array()) texts.push_back(text.string());
  return texts;
}

// The "values" of an events line: kValuesPerEvent numbers per step, in kEventFields' order.
std::vector<StepRecord> read_steps(const JsonValue& checked, std::size_t phases) {
  if (!checked.json().is_array()) checked.fail(fmt::format("expected an array of numbers, found {}", describe_json(checked.json())));
  const std::vector<JsonValue> values = checked.array();
  if (values.size() % kValuesPerEvent != 0)
    checked.fail(fmt::format("holds {} numbers, not a multiple of {}", values.size(), kValuesPerEvent));
  for (const JsonValue& value : values) value.number();  // every one a number before any is read
  constexpr double kIntLow = std::numeric_limits<int>::min(), kIntEnd = 1.0 + std::numeric_limits<int>::max();
  const double bytes_end = std::ldexp(1.0, 64);  // 2^64, one past the largest std::uint64_t
  std::vector<StepRecord> steps;
  for (std::size_t i = 0; i < values.size(); i += kValuesPerEvent) {
    const auto integer = [&](std::size_t field) { return whole_number<int>(values, i + field, kIntLow, kIntEnd); };
    StepRecord step{integer(0), integer(1), integer(2), integer(3), integer(4),
                    whole_number<std::uint64_t>(values, i + 5, 0, bytes_end), values[i + 6].number(), values[i + 7].number()};
    if (step.phase < 0 || static_cast<std::size_t>(step.phase) >= phases)
      values[i + 1].fail(fmt::format("phase {} has no name in \"phase_names\"", step.phase));
    steps.push_back(step);
  }
  return steps;
}

SizeSteps parse_line(const std::string& line, const std::string& where) {
  nlohmann::json entry;
  try {
    entry = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not JSON: {}", where, e.what()));
  }
  if (!entry.is_object()) throw_input_error(where, "/", fmt::format("not an events line: expected an object, found {}", describe_json(entry)));
  JsonObjectReader fields(entry, where, "");
  SizeSteps size;
  const JsonValue bytes = fields.required("bytes");
  if (!json_integer<std::uint64_t>(bytes.json())) bytes.fail(fmt::format("expected a byte count, found {}", describe_json(bytes.json())));
  size.bytes = bytes.integer<std::uint64_t>();
  // The order rank_main.cpp flattens each event in; a file with other fields is from another program.
  const auto names = strings(fields.required("fields"));
  if (!std::equal(names.begin(), names.end(), kEventFields.begin(), kEventFields.end()))
    fields.fail("fields", fmt::format("unexpected \"fields\" {}", nlohmann::json(names).dump()));
  const auto phase_names = fields.optional("phase_names");
  size.phase_names = phase_names ? strings(*phase_names) : default_phase_names();
  size.steps = read_steps(fields.required("values"), size.phase_names.size());
  return size;
}

nlohmann::json metadata(const char* name, int pid, std::optional<int> tid, nlohmann::json args) {
  nlohmann::json event = {{"name", name}, {"ph", "M"}, {"pid", pid}, {"args", std::move(args)}};
  if (tid) event["tid"] = *tid;
  return event;
}

// Nanosecond resolution is plenty for a picture and keeps the file short.
double microseconds(double seconds) { return std::round(seconds * 1e9) / 1e3; }

}  // namespace

const std::vector<std::string>& default_phase_names() {
  static const std::vector<std::string> names{"scatter_reduce", "allgather"};
  return names;
}

std::vector<SizeSteps> parse_events_lines(std::string_view text, const std::string& file) {
  std::vector<SizeSteps> sizes;
  std::size_t line_number = 0;
  for (std::size_t from = 0; from < text.size();) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    const std::string line(text.substr(from, end - from));
    ++line_number;
    from = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    sizes.push_back(parse_line(line, fmt::format("{}:{}", file, line_number)));
  }
  return sizes;
}

std::vector<SizeSteps> read_events_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: the rank program wrote no events file", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  return parse_events_lines(text.str(), file.string());
}

nlohmann::json chrome_timeline(std::string_view scenario, const std::vector<TimelineCase>& cases) {
  nlohmann::json events = nlohmann::json::array();
  int pid = 0;
  for (const TimelineCase& c : cases)
    for (const SizeSteps& size : c.sizes) {
      ++pid;
      events.push_back(metadata("process_name", pid, std::nullopt,
                                {{"name", fmt::format("{} {} {}, {} ({} ranks)", c.placement, c.order, c.algorithm,
                                                      format_bytes(size.bytes), c.ranks)},
                                 {"placement", c.placement},
                                 {"order", c.order},
                                 {"algorithm", c.algorithm},
                                 {"ranks", c.ranks},
                                 {"bytes", size.bytes}}));
      events.push_back(metadata("process_sort_index", pid, std::nullopt, {{"sort_index", pid}}));
      for (int rank = 0; rank < c.ranks; ++rank) {
        events.push_back(metadata("thread_name", pid, rank, {{"name", fmt::format("rank {}", rank)}}));
        events.push_back(metadata("thread_sort_index", pid, rank, {{"sort_index", rank}}));
      }
      for (const StepRecord& step : size.steps) {
        const std::string& phase = size.phase_names[static_cast<std::size_t>(step.phase)];
        events.push_back({{"name", fmt::format("{} {}", phase, step.step)},
                          {"cat", phase},
                          {"ph", "X"},
                          {"pid", pid},
                          {"tid", step.rank},
                          {"ts", microseconds(step.start_s)},
                          {"dur", microseconds(step.end_s - step.start_s)},
                          {"args",
                           {{"phase", phase},
                            {"step", step.step},
                            {"chunk", step.chunk},
                            {"bytes", step.bytes},
                            {"peer", step.peer}}}});
      }
    }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"scenario", scenario}, {"clock", "simulated (SMPI), microseconds"}, {"producer", "ringsim run --timeline"}}}};
}

}  // namespace ringsim
