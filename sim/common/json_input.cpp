#include "json_input.h"

#include "input_error.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <vector>

namespace ringsim {
namespace {

// Line and column (1-based) of a byte offset, for nlohmann's parse errors which only report bytes.
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

void throw_input_error(std::string_view file, std::string_view path, std::string_view message) {
  throw InputError(path.empty() ? fmt::format("{}: {}", file, message)
                                : fmt::format("{}: {}: {}", file, path, message));
}

bool json_integer_within(const nlohmann::json& value, std::int64_t min, std::uint64_t max) {
  // nlohmann keeps a parsed integer of 0 and above as unsigned, a negative one as signed.
  if (value.is_number_unsigned()) {
    const std::uint64_t number = value.get<std::uint64_t>();
    return number <= max && (min <= 0 || number >= static_cast<std::uint64_t>(min));
  }
  if (!value.is_number_integer()) return false;
  const std::int64_t number = value.get<std::int64_t>();
  return number >= min && (number < 0 || static_cast<std::uint64_t>(number) <= max);
}

std::string describe_json(const nlohmann::json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

std::string read_input_file(const std::filesystem::path& file) {
  // A directory opens as an empty stream on Linux; say what it is rather than "malformed".
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored))
    throw InputError(fmt::format("{}: is a directory; expected a file", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read file (does it exist?)", file.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::size_t json_error_byte(std::string_view text, const nlohmann::json::exception& error) {
  if (const auto* syntax = dynamic_cast<const nlohmann::json::parse_error*>(&error)) return syntax->byte;
  const std::string_view what = error.what();
  const std::size_t open = what.find('\''), close = what.rfind('\'');
  if (open == std::string_view::npos || close <= open + 1) return 1;
  const std::size_t at = text.find(what.substr(open + 1, close - open - 1));
  return at == std::string_view::npos ? 1 : at + 1;
}

nlohmann::json load_json_file(const std::filesystem::path& file) {
  const std::string text = read_input_file(file);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    auto [line, column] = line_column(text, json_error_byte(text, e));
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: " (or
    // "[json.exception.out_of_range.406] "); keep the reason.
    if (const auto bracket = what.find("] "); what.starts_with("[json.exception.") && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    if (const auto colon = what.find(": "); what.starts_with("parse error") && colon != std::string::npos)
      what = what.substr(colon + 2);
    throw InputError(fmt::format("{}:{}:{}: malformed JSON: {}", file.string(), line, column, what));
  }
}

JsonValue::JsonValue(const nlohmann::json& value, std::string file, std::string path)
    : value_(value), file_(std::move(file)), path_(std::move(path)) {}

void JsonValue::fail(std::string_view message) const { throw_input_error(file_, path_.empty() ? "/" : path_, message); }

void JsonValue::fail_expected(std::string_view expected) const {
  fail(fmt::format("expected {}, found {}", expected, describe_json(value_)));
}

std::string JsonValue::integer_range(std::int64_t min, std::uint64_t max) {
  return fmt::format("an integer from {} to {}", min, max);
}

std::string JsonValue::string() const {
  if (!value_.is_string()) fail_expected("a string");
  return value_.get<std::string>();
}

bool JsonValue::boolean() const {
  if (!value_.is_boolean()) fail_expected("true or false");
  return value_.get<bool>();
}

double JsonValue::number(double min, double max) const {
  // The parser never yields NaN or infinity, but a value built in memory might.
  const bool within = value_.is_number() && std::isfinite(value_.get<double>()) && value_.get<double>() >= min &&
                      value_.get<double>() <= max;
  if (!within) {
    const bool unbounded = min == -std::numeric_limits<double>::max() && max == std::numeric_limits<double>::max();
    fail_expected(unbounded ? std::string("a number") : fmt::format("a number from {:g} to {:g}", min, max));
  }
  return value_.get<double>();
}

double JsonValue::number(double min, double max, std::string_view expected) const {
  if (!value_.is_number() || !(value_.get<double>() >= min && value_.get<double>() <= max)) fail_expected(expected);
  return value_.get<double>();
}

std::optional<std::uint64_t> JsonValue::byte_count() const {
  if (value_.is_string()) return parse_bytes(value_.get<std::string>());
  return json_integer<std::uint64_t>(value_);
}

JsonObjectReader JsonValue::object() const { return JsonObjectReader(value_, file_, path_); }

std::vector<JsonValue> JsonValue::array() const {
  if (!value_.is_array()) fail_expected("an array");
  std::vector<JsonValue> elements;
  elements.reserve(value_.size());
  for (std::size_t i = 0; i < value_.size(); ++i) elements.emplace_back(value_[i], file_, fmt::format("{}/{}", path_, i));
  return elements;
}

JsonObjectReader::JsonObjectReader(const nlohmann::json& value, std::string file, std::string path)
    : object_(value), file_(std::move(file)), path_(std::move(path)) {
  if (!object_.is_object())
    throw_input_error(file_, path_.empty() ? "/" : path_,
                      fmt::format("expected a JSON object, found {}", describe_json(object_)));
}

std::string JsonObjectReader::path_of(std::string_view key) const { return fmt::format("{}/{}", path_, key); }

std::string JsonObjectReader::path_of(std::string_view key, std::size_t index) const {
  return fmt::format("{}/{}/{}", path_, key, index);
}

void JsonObjectReader::fail(std::string_view key, std::string_view message) const {
  throw_input_error(file_, path_of(key), message);
}

const nlohmann::json* JsonObjectReader::optional_value(std::string_view key) {
  known_.emplace(key);
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

const nlohmann::json& JsonObjectReader::required_value(std::string_view key) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) fail(key, "missing required key");
  return *value;
}

std::string JsonObjectReader::required_string(std::string_view key) {
  auto value = optional_string(key);
  if (!value) fail(key, "missing required key (a string)");
  return *value;
}

std::optional<std::string> JsonObjectReader::optional_string(std::string_view key) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) fail(key, fmt::format("expected a string, found {}", describe_json(*value)));
  return value->get<std::string>();
}

std::optional<bool> JsonObjectReader::optional_bool(std::string_view key) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) fail(key, fmt::format("expected true or false, found {}", describe_json(*value)));
  return value->get<bool>();
}

std::optional<std::int64_t> JsonObjectReader::optional_int(std::string_view key, std::int64_t min,
                                                           std::int64_t max) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) return std::nullopt;
  const auto number = json_integer<std::int64_t>(*value, min, max);
  if (!number) fail(key, fmt::format("expected an integer from {} to {}, found {}", min, max, describe_json(*value)));
  return number;
}

std::optional<double> JsonObjectReader::optional_number(std::string_view key, double min, double max) {
  const auto value = optional(key);
  if (!value) return std::nullopt;
  return value->number(min, max);
}

std::optional<double> JsonObjectReader::optional_number(std::string_view key, double min, double max,
                                                       std::string_view expected) {
  const auto value = optional(key);
  if (!value) return std::nullopt;
  return value->number(min, max, expected);
}

double JsonObjectReader::required_number(std::string_view key, double min, double max) {
  return required(key).number(min, max);
}

std::int64_t JsonObjectReader::required_int(std::string_view key, std::int64_t min, std::int64_t max) {
  return required(key).integer<std::int64_t>(min, max);
}

bool JsonObjectReader::required_bool(std::string_view key) { return required(key).boolean(); }

JsonValue JsonObjectReader::required(std::string_view key) { return JsonValue(required_value(key), file_, path_of(key)); }

std::optional<JsonValue> JsonObjectReader::optional(std::string_view key) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) return std::nullopt;
  return JsonValue(*value, file_, path_of(key));
}

template <typename T, typename Parse>
std::optional<T> JsonObjectReader::optional_unit(std::string_view key, Parse parse, std::string_view hint) {
  const nlohmann::json* value = optional_value(key);
  if (value == nullptr) return std::nullopt;
  std::optional<T> parsed;
  if (value->is_string()) parsed = parse(value->get<std::string>());
  if (!parsed) fail(key, fmt::format("expected {}, found {}", hint, describe_json(*value)));
  return parsed;
}

std::optional<double> JsonObjectReader::optional_bandwidth(std::string_view key) {
  return optional_unit<double>(key, parse_bandwidth, kBandwidthHint);
}

std::optional<double> JsonObjectReader::optional_latency(std::string_view key) {
  return optional_unit<double>(key, parse_latency, kLatencyHint);
}

std::optional<double> JsonObjectReader::optional_speed(std::string_view key) {
  return optional_unit<double>(key, parse_speed, kSpeedHint);
}

void JsonObjectReader::finish() const {
  for (const auto& [key, unused] : object_.items()) {
    if (known_.count(key) != 0) continue;
    std::string_view closest;
    std::size_t best = 3;  // suggest only near misses
    for (const auto& candidate : known_) {
      std::size_t distance = edit_distance(key, candidate);
      if (distance < best) best = distance, closest = candidate;
    }
    std::string known_list;
    for (const auto& candidate : known_) known_list += (known_list.empty() ? "" : ", ") + candidate;
    fail(key, closest.empty() ? fmt::format("unknown key; known keys here: {}", known_list)
                              : fmt::format("unknown key; did you mean \"{}\"?", closest));
  }
}

}  // namespace ringsim
