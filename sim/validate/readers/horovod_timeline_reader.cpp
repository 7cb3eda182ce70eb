// Horovod's timeline (Chrome trace-event JSON, written on rank 0). Each tensor is a "process"
// (pid, named by a process_name metadata event); an allreduce is the top-level "B" ALLREDUCE event
// up to the "E" that closes it, whose args give dtype and shape. Ranks are counted from the
// negotiation ticks ("X" events named by rank). Horovod may leave the array unclosed: tolerated.
#include "../text_table.h"
#include "../trace_readers.h"

#include "../../common/input_error.h"
#include "../../common/json_input.h"

#include <charconv>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace ringsim {
namespace {

// Beyond these a number is not a measurement: timestamps are microseconds since the timeline began
// (1e15 is about 31 years), a rank count or a tensor (1 PiB) far past any cluster.
constexpr double kMaxTimestampUs = 1e15;
constexpr int kMaxTraceRanks = 1 << 20;
constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 50;

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

// "[1000, 10]" -> 10000; "[]" -> 1 (a scalar); nullopt for anything else, or a count past 2^64.
std::optional<std::uint64_t> shape_elements(const std::string& shape) {
  std::uint64_t elements = 1;
  std::string digits;
  for (char c : shape + ",") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c == ',' || c == ']') {
      if (digits.empty()) continue;
      std::uint64_t extent = 0;
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), extent);
      if (error != std::errc() || (extent != 0 && elements > std::numeric_limits<std::uint64_t>::max() / extent))
        return std::nullopt;
      elements *= extent;
      digits.clear();
    } else if (c != '[' && c != ' ') {
      return std::nullopt;
    }
  }
  return elements;
}

int line_of(std::string_view text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

// The timeline's events, an array left open by a writer that stopped closed first (a trailing comma
// dropped, "]" added).
nlohmann::json parse_timeline(std::string_view text, const std::string& file) {
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
  return events;
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
  const nlohmann::json events = parse_timeline(text, file);
  MeasuredTrace trace;
  trace.format = "horovod-timeline";
  trace.time_meaning = "ALLREDUCE duration of each tensor on rank 0's timeline (fused tensors share one operation)";
  std::map<int, std::vector<std::pair<std::string, double>>> open;  // pid -> stack of (name, ts)
  int max_rank = -1;
  const std::vector<JsonValue> event_values = JsonValue(events, file, "").array();
  for (std::size_t i = 0; i < event_values.size(); ++i) {
    const JsonValue& value = event_values[i];
    JsonObjectReader event = value.object();  // Chrome trace events carry keys ringsim does not read
    const std::string phase = event.required_string("ph");
    const auto name = event.optional_string("name");
    if (phase == "X" && name) {
      // Negotiation ticks are named by rank: "0", "1", ...
      int rank = 0;
      const auto [end, error] = std::from_chars(name->data(), name->data() + name->size(), rank);
      if (!name->empty() && error == std::errc() && end == name->data() + name->size() && rank >= 0 && rank < kMaxTraceRanks)
        max_rank = std::max(max_rank, rank);
      continue;
    }
    if (phase != "B" && phase != "E") continue;
    const int pid = event.optional("pid") ? event.required("pid").integer<int>(0, std::numeric_limits<int>::max()) : 0;
    const double ts_us = event.required_number("ts", 0, kMaxTimestampUs);
    if (phase == "B") {
      open[pid].emplace_back(name.value_or(""), ts_us);
      continue;
    }
    auto& stack = open[pid];
    if (stack.empty()) value.fail("an \"E\" event without its \"B\"");
    const auto [begin_name, begin_us] = stack.back();
    stack.pop_back();
    if (ts_us < begin_us) event.fail("ts", fmt::format("the \"E\" event ends at {:g} us, before its \"B\" at {:g} us", ts_us, begin_us));
    const auto args = event.optional("args");
    if (begin_name != "ALLREDUCE" || !args) continue;
    std::optional<std::uint64_t> dtype, elements;
    if (args->json().is_object()) {
      JsonObjectReader fields = args->object();
      if (const auto dtype_name = fields.optional_string("dtype")) dtype = dtype_bytes(*dtype_name);
      if (const auto shape = fields.optional_string("shape")) elements = shape_elements(*shape);
    }
    if (!dtype || !elements) value.fail("the ALLREDUCE end has no readable dtype and shape");
    if (*elements > kMaxTraceBytes / *dtype) args->fail(fmt::format("a tensor of over {} bytes", kMaxTraceBytes));
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
