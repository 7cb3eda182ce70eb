#include "units.h"

#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <utility>

namespace ringsim {
namespace {

struct Suffix {
  std::string_view text;
  double factor;
};

// Splits "1.25GBps" into 1.25 and "GBps"; rejects text without a leading finite, non-negative number.
std::optional<std::pair<double, std::string_view>> split_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || !std::isfinite(value) || value < 0) return std::nullopt;
  return std::pair{value, text.substr(static_cast<std::size_t>(end - text.data()))};
}

template <std::size_t N>
std::optional<double> parse_with(std::string_view text, const std::array<Suffix, N>& suffixes,
                                 bool unit_required) {
  auto split = split_number(text);
  if (!split) return std::nullopt;
  auto [value, unit] = *split;
  if (unit.empty()) return unit_required ? std::nullopt : std::optional<double>(value);
  for (const auto& s : suffixes)
    if (unit == s.text)  // divide for sub-units: 5 / 1e6 is exactly the double nearest 5e-6, 5 * 1e-6 is not
      return s.factor < 1 ? value / std::round(1 / s.factor) : value * s.factor;
  return std::nullopt;
}

constexpr double kKi = 1024.0, kMi = kKi * kKi, kGi = kMi * kKi, kTi = kGi * kKi;

}  // namespace

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  static constexpr std::array<Suffix, 14> kSizes{{{"B", 1},        {"K", kKi},      {"KiB", kKi},
                                                  {"KB", kKi},     {"k", kKi},      {"M", kMi},
                                                  {"MiB", kMi},    {"MB", kMi},     {"G", kGi},
                                                  {"GiB", kGi},    {"GB", kGi},     {"T", kTi},
                                                  {"TiB", kTi},    {"TB", kTi}}};
  auto value = parse_with(text, kSizes, false);
  if (!value || *value != std::floor(*value) || *value > 1e18) return std::nullopt;
  return static_cast<std::uint64_t>(*value);
}

std::optional<double> parse_bandwidth(std::string_view text) {
  // SimGrid: "bps" counts bits, "Bps" bytes; decimal (k, M, G, T) and binary (Ki, Mi, Gi, Ti) prefixes.
  static constexpr std::array<Suffix, 18> kRates{{{"Bps", 1},          {"kBps", 1e3},      {"KBps", 1e3},
                                                  {"MBps", 1e6},       {"GBps", 1e9},      {"TBps", 1e12},
                                                  {"KiBps", kKi},      {"MiBps", kMi},     {"GiBps", kGi},
                                                  {"bps", 0.125},      {"kbps", 125},      {"Kbps", 125},
                                                  {"Mbps", 1.25e5},    {"Gbps", 1.25e8},   {"Tbps", 1.25e11},
                                                  {"Kibps", kKi / 8},  {"Mibps", kMi / 8}, {"Gibps", kGi / 8}}};
  auto value = parse_with(text, kRates, true);
  if (!value || *value <= 0) return std::nullopt;
  return value;
}

std::optional<double> parse_latency(std::string_view text) {
  static constexpr std::array<Suffix, 8> kTimes{{{"s", 1},
                                                 {"ms", 1e-3},
                                                 {"us", 1e-6},
                                                 {"ns", 1e-9},
                                                 {"ps", 1e-12},
                                                 {"m", 60},
                                                 {"h", 3600},
                                                 {"d", 86400}}};
  return parse_with(text, kTimes, true);
}

std::optional<double> parse_speed(std::string_view text) {
  static constexpr std::array<Suffix, 9> kFlops{{{"f", 1},
                                                 {"kf", 1e3},
                                                 {"Mf", 1e6},
                                                 {"Gf", 1e9},
                                                 {"Tf", 1e12},
                                                 {"Pf", 1e15},
                                                 {"Kif", kKi},
                                                 {"Mif", kMi},
                                                 {"Gif", kGi}}};
  auto value = parse_with(text, kFlops, true);
  if (!value || *value <= 0) return std::nullopt;
  return value;
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<std::pair<std::uint64_t, std::string_view>, 4> kUnits{
      {{1ULL << 40, "TiB"}, {1ULL << 30, "GiB"}, {1ULL << 20, "MiB"}, {1ULL << 10, "KiB"}}};
  for (auto [size, name] : kUnits)
    if (bytes >= size && bytes % size == 0) return fmt::format("{}{}", bytes / size, name);
  return fmt::format("{}B", bytes);
}

}  // namespace ringsim
