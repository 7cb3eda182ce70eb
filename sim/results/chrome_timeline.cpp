#include "chrome_timeline.h"

#include "../common/units.h"
#include "../rank/rank_report.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ringsim {
namespace {

constexpr std::size_t kValuesPerEvent = kEventFields.size();

SizeSteps parse_line(const std::string& line, const std::string& where) {
  nlohmann::json entry;
  try {
    entry = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", where, e.what()));
  }
  try {
    SizeSteps size;
    size.bytes = entry.at("bytes").get<std::uint64_t>();
    // The order rank_main.cpp flattens each event in; a file with other fields is from another program.
    const auto fields = entry.at("fields").get<std::vector<std::string>>();
    if (!std::equal(fields.begin(), fields.end(), kEventFields.begin(), kEventFields.end()))
      throw std::runtime_error(fmt::format("{}: unexpected \"fields\" {}", where, entry.at("fields").dump()));
    size.phase_names = entry.contains("phase_names") ? entry.at("phase_names").get<std::vector<std::string>>()
                                                     : default_phase_names();
    const auto values = entry.at("values").get<std::vector<double>>();
    if (values.size() % kValuesPerEvent != 0)
      throw std::runtime_error(fmt::format("{}: \"values\" holds {} numbers, not a multiple of {}", where,
                                           values.size(), kValuesPerEvent));
    for (std::size_t i = 0; i < values.size(); i += kValuesPerEvent) {
      const double* v = values.data() + i;
      StepRecord step{static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]),
                      static_cast<int>(v[3]), static_cast<int>(v[4]), static_cast<std::uint64_t>(v[5]),
                      v[6],                   v[7]};
      if (step.phase < 0 || static_cast<std::size_t>(step.phase) >= size.phase_names.size())
        throw std::runtime_error(fmt::format("{}: phase {} has no name in \"phase_names\"", where, step.phase));
      size.steps.push_back(step);
    }
    return size;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not an events line: {}", where, e.what()));
  }
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
