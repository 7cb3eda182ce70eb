// Parsing of the unit spellings every input file uses (see docs/scenario-format.md, "Units").
// Bandwidth, latency and speed follow SimGrid's spelling; sizes follow nccl-tests' -b/-e.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ringsim {

// Each parser returns nullopt for text it does not understand; callers attach file/path context.
std::optional<std::uint64_t> parse_bytes(std::string_view text);     // "16MiB", "4K", "1048576" -> bytes
std::optional<double> parse_bandwidth(std::string_view text);         // "10Gbps", "1.25GBps" -> bytes/s
std::optional<double> parse_latency(std::string_view text);           // "1us", "0.5ms", "2ns" -> seconds
std::optional<double> parse_speed(std::string_view text);             // "1Tf", "100Gf" -> flop/s

inline constexpr std::string_view kBytesHint = "a byte count such as 1048576, 4KiB, 16MiB or 1GiB";
inline constexpr std::string_view kBandwidthHint = "a bandwidth such as 10Gbps, 1.25GBps or 100Mbps";
inline constexpr std::string_view kLatencyHint = "a latency such as 1us, 0.5ms or 0s";
inline constexpr std::string_view kSpeedHint = "a speed such as 1Tf, 100Gf or 1e9f";

// "16MiB" style for tables: the largest binary unit that divides the value exactly.
std::string format_bytes(std::uint64_t bytes);

}  // namespace ringsim
