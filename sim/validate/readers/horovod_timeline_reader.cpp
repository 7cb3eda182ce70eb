// Horovod's timeline (Chrome trace-event JSON, written on rank 0). Each tensor is a "process"
// (pid, named by a process_name metadata event); an allreduce is the top-level "B" ALLREDUCE event
// up to the "E" that closes it, whose args give dtype and shape. Ranks are counted from the
// negotiation ticks ("X" events named by rank). Horovod may leave the array unclosed: tolerated.
#include "../text_table.h"
#include "../trace_readers.h"

#include "../../common/input_error.h"
#include "../../common/json_input.h"

#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace ringsim {
namespace {

// Bytes per element of Horovod's dtype names ("float32", or "HOROVOD_FLOAT32" in some versions).
std::optional<std::uint64_t> dtype_bytes(std::string dtype) {
  for (auto& c : dtype) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<std::string_view, std::uint64_t> kSizes[] = {
      {"float64", 8}, {"int64", 8}, {"float32", 4}, {"int32", 4}, {"float16", 2}, {"bfloat16", 2},
      {"int16", 2},   {"uint16", 2}, {"uint8", 1},  {"int8", 1},  {"bool", 1}};
  for (auto [name, size] : kSizes)
    if (dtype.find(name) != std::string::npos) return size;
  return std::nullopt;
}

// "[1000, 10]" -> 10000; "[]" -> 1 (a scalar).
std::optional<std::uint64_t> shape_elements(const std::string& shape) {
  std::uint64_t elements = 1;
  std::string digits;
  for (char c : shape + ",") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c == ',' || c == ']') {
      if (!digits.empty()) elements *= std::stoull(digits), digits.clear();
    } else if (c != '[' && c != ' ') {
      return std::nullopt;
    }
  }
  return elements;
}

int line_of(std::string_view text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

}  // namespace

bool detect_horovod_timeline(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '[') return false;
  const auto head = text.substr(0, 4000);
  return head.find("\"ph\"") != std::string_view::npos &&
         (head.find("process_name") != std::string_view::npos || head.find("NEGOTIATE_") != std::string_view::npos);
}

MeasuredTrace read_horovod_timeline(std::string_view text, const std::string& file) {
  // Close an array left open by a writer that stopped: drop a trailing comma, add "]".
  std::string json_text(text);
  while (!json_text.empty() && std::isspace(static_cast<unsigned char>(json_text.back()))) json_text.pop_back();
  if (!json_text.empty() && json_text.back() == ',') json_text.pop_back();
  if (!json_text.empty() && json_text.back() != ']') json_text += "]";
  nlohmann::json events;
  try {
    events = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    throw_trace_error(file, line_of(text, json_error_byte(json_text, e)), "malformed Horovod timeline JSON (truncated inside an event?)");
  }
  if (!events.is_array()) throw_trace_error(file, 1, "a Horovod timeline is a JSON array of trace events");

  MeasuredTrace trace;
  trace.format = "horovod-timeline";
  trace.time_meaning = "ALLREDUCE duration of each tensor on rank 0's timeline (fused tensors share one operation)";
  std::map<long long, std::vector<std::pair<std::string, double>>> open;  // pid -> stack of (name, ts)
  int max_rank = -1;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& event = events[i];
    const std::string where = fmt::format("/{}", i);  // the event's JSON path in the array
    if (!event.is_object() || !event.contains("ph") || !event["ph"].is_string())
      throw InputError(fmt::format("{}: {}: a trace event needs a \"ph\" string", file, where));
    const std::string phase = event["ph"];
    const long long pid = event.value("pid", 0LL);
    if (phase == "X" && event.contains("name") && event["name"].is_string()) {
      const std::string name = event["name"];
      if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos)
        max_rank = std::max(max_rank, std::stoi(name));
      continue;
    }
    if (phase != "B" && phase != "E") continue;
    if (!event.contains("ts") || !event["ts"].is_number())
      throw InputError(fmt::format("{}: {}: a \"{}\" event needs a numeric \"ts\"", file, where, phase));
    const double ts_us = event["ts"].get<double>();
    if (phase == "B") {
      open[pid].emplace_back(event.value("name", std::string()), ts_us);
      continue;
    }
    auto& stack = open[pid];
    if (stack.empty()) throw InputError(fmt::format("{}: {}: an \"E\" event without its \"B\"", file, where));
    const auto [name, begin_us] = stack.back();
    stack.pop_back();
    if (name != "ALLREDUCE" || !event.contains("args")) continue;
    const auto& args = event["args"];
    auto dtype = args.contains("dtype") && args["dtype"].is_string() ? dtype_bytes(args["dtype"]) : std::nullopt;
    auto elements = args.contains("shape") && args["shape"].is_string() ? shape_elements(args["shape"]) : std::nullopt;
    if (!dtype || !elements)
      throw InputError(fmt::format("{}: {}: the ALLREDUCE end has no readable dtype and shape", file, where));
    trace.points.push_back({*dtype * *elements, (ts_us - begin_us) * 1e-6, "", "", std::nullopt, static_cast<int>(i)});
  }
  if (trace.points.empty()) throw_trace_error(file, 1, "no complete ALLREDUCE operation in the timeline");
  if (max_rank >= 0) {
    trace.ranks = max_rank + 1;
    for (auto& point : trace.points) point.ranks = trace.ranks;
  }
  return trace;
}

}  // namespace ringsim
