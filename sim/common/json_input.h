// Checked reading of every JSON file ringsim reads (scenarios, topologies, model files, sweeps, results,
// traces, timelines, plan files, the rank program's reports): every error names the file and the JSON
// path. Hand-written inputs also reject unknown keys (JsonObjectReader::finish), since they are typos;
// files other programs write (traces, results of newer versions) are read without that check.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ringsim {

// Whether VALUE is a JSON integer from MIN to MAX. A float never is, however whole: nlohmann's
// get<T>() converts any number, and a float out of T's range is undefined behaviour (fuzz finding,
// trace_ringsim_results: "max_rank_sent_bytes": 65E36).
bool json_integer_within(const nlohmann::json& value, std::int64_t min, std::uint64_t max);

// VALUE as a T when it is a JSON integer from MIN to MAX (by default T's whole range); nullopt for
// anything else (a float, a string, a number out of range), for the caller to name file and path.
template <typename T>
std::optional<T> json_integer(const nlohmann::json& value, T min = std::numeric_limits<T>::min(),
                              T max = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= sizeof(std::int64_t));
  if (!json_integer_within(value, static_cast<std::int64_t>(min), static_cast<std::uint64_t>(max))) return std::nullopt;
  return value.is_number_unsigned() ? static_cast<T>(value.get<std::uint64_t>()) : static_cast<T>(value.get<std::int64_t>());
}

// The whole of a user's input file; throws InputError "FILE: cannot read file (does it exist?)".
std::string read_input_file(const std::filesystem::path& file);

// Parses FILE; throws InputError "FILE:LINE:COL: malformed JSON: ..." or "FILE: cannot read ...".
nlohmann::json load_json_file(const std::filesystem::path& file);

// Where nlohmann's parser failed in TEXT, as a 1-based byte offset (parse_error::byte's convention):
// a syntax error carries it; a number too large for a double (out_of_range 406) only names its
// token, which is looked up in TEXT. Every reader of JSON text catches nlohmann::json::exception.
std::size_t json_error_byte(std::string_view text, const nlohmann::json::exception& error);

class JsonObjectReader;

// One JSON value with the file and JSON path it was read from: the checked way to take a value of a
// type out of any JSON file ringsim reads. Each accessor either returns the typed value or throws
// InputError "FILE: PATH: expected ..., found ..." (never nlohmann's type_error, never an
// out-of-range conversion, which is undefined behaviour).
class JsonValue {
 public:
  JsonValue(const nlohmann::json& value, std::string file, std::string path);

  bool is_null() const { return value_.is_null(); }
  std::string string() const;
  bool boolean() const;
  // A finite number from MIN to MAX (an integer or a float).
  double number(double min = -std::numeric_limits<double>::max(), double max = std::numeric_limits<double>::max()) const;
  // The same with the error's EXPECTED phrase given: "expected EXPECTED, found ..." (for a bound that
  // excludes, pass the next double: std::nextafter(0.0, 1.0) for "above 0").
  double number(double min, double max, std::string_view expected) const;
  // A byte count: a string such as "16MiB" or a JSON integer of 0 and above; nullopt for anything
  // else, for the caller to say what it expected.
  std::optional<std::uint64_t> byte_count() const;
  // A JSON integer from MIN to MAX (a float never is, however whole).
  template <typename T>
  T integer(T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) const {
    const std::optional<T> number = json_integer<T>(value_, min, max);
    if (!number) fail_expected(integer_range(static_cast<std::int64_t>(min), static_cast<std::uint64_t>(max)));
    return *number;
  }
  // The same, WHAT saying what it counts: "expected a rank count (an integer from 1 to 64), found 0".
  template <typename T>
  T integer(T min, T max, std::string_view what) const {
    const std::optional<T> number = json_integer<T>(value_, min, max);
    if (!number)
      fail_expected(std::string(what) + " (" + integer_range(static_cast<std::int64_t>(min), static_cast<std::uint64_t>(max)) + ")");
    return *number;
  }
  // Throws unless the value is an object (whose unknown keys the caller may or may not reject).
  JsonObjectReader object() const;
  // The elements of an array, each with its path; throws unless the value is an array.
  std::vector<JsonValue> array() const;

  const nlohmann::json& json() const { return value_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(std::string_view message) const;

 private:
  [[noreturn]] void fail_expected(std::string_view expected) const;
  static std::string integer_range(std::int64_t min, std::uint64_t max);  // "an integer from MIN to MAX"

  const nlohmann::json& value_;
  std::string file_;
  std::string path_;
};

// Reads one JSON object key by key. Every accessor records the key as known; finish() then
// rejects the keys nobody asked for, naming the closest known one.
class JsonObjectReader {
 public:
  // Throws InputError when VALUE is not an object.
  JsonObjectReader(const nlohmann::json& value, std::string file, std::string path);

  std::string required_string(std::string_view key);
  std::optional<std::string> optional_string(std::string_view key);
  std::optional<bool> optional_bool(std::string_view key);
  std::optional<std::int64_t> optional_int(std::string_view key, std::int64_t min, std::int64_t max);
  std::optional<double> optional_number(std::string_view key, double min, double max);
  std::optional<double> optional_number(std::string_view key, double min, double max, std::string_view expected);
  double required_number(std::string_view key, double min, double max);
  std::int64_t required_int(std::string_view key, std::int64_t min, std::int64_t max);
  bool required_bool(std::string_view key);
  // The value under KEY with its path, for arrays, nested objects and values of several types;
  // optional() is nullopt when KEY is absent (a null is returned: the caller decides).
  JsonValue required(std::string_view key);
  std::optional<JsonValue> optional(std::string_view key);
  // Raw access for arrays, nested objects and values of several types; nullptr when absent.
  const nlohmann::json* optional_value(std::string_view key);
  const nlohmann::json& required_value(std::string_view key);

  // Unit-bearing strings ("10Gbps", "1us", "16MiB", "1Tf"), converted with the parsers in units.h.
  std::optional<double> optional_bandwidth(std::string_view key);
  std::optional<double> optional_latency(std::string_view key);
  std::optional<double> optional_speed(std::string_view key);

  void finish() const;

  std::string path_of(std::string_view key) const;
  std::string path_of(std::string_view key, std::size_t index) const;
  const std::string& file() const { return file_; }
  [[noreturn]] void fail(std::string_view key, std::string_view message) const;

 private:
  template <typename T, typename Parse>
  std::optional<T> optional_unit(std::string_view key, Parse parse, std::string_view hint);

  const nlohmann::json& object_;
  std::string file_;
  std::string path_;
  std::set<std::string, std::less<>> known_;
};

// "FILE: PATH: MESSAGE" as used by every input error.
[[noreturn]] void throw_input_error(std::string_view file, std::string_view path, std::string_view message);

// A short rendering of a JSON value for error messages ("\"10Gbs\"", "3", "{...}").
std::string describe_json(const nlohmann::json& value);

}  // namespace ringsim
