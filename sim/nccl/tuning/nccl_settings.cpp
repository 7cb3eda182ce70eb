#include "nccl_settings.h"

#include "../../common/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

namespace ringsim {

std::string NcclVersion::text() const { return fmt::format("{}.{}", major, minor); }

std::optional<NcclVersion> parse_nccl_version(std::string_view text) {
  if (const auto build = text.find('+'); build != std::string_view::npos) text = text.substr(0, build);
  NcclVersion version;
  const char* end = text.data() + text.size();
  auto [after_major, ec1] = std::from_chars(text.data(), end, version.major);
  if (ec1 != std::errc() || after_major == end || *after_major != '.') return std::nullopt;
  auto [after_minor, ec2] = std::from_chars(after_major + 1, end, version.minor);
  if (ec2 != std::errc()) return std::nullopt;
  if (after_minor != end) {
    int patch = 0;
    if (*after_minor != '.') return std::nullopt;
    auto [after_patch, ec3] = std::from_chars(after_minor + 1, end, patch);
    if (ec3 != std::errc() || after_patch != end) return std::nullopt;
  }
  // 2.4 chose by thresholds (no time model), 2.5 on by tuning.cc's model (docs/scenario-format.md, "NCCL's time model").
  if (version.major != 2 || version.minor < 4 || version.minor > 99) return std::nullopt;
  return version;
}

std::string_view protocol_name(NcclProtocol protocol) {
  switch (protocol) {
    case NcclProtocol::ll: return "LL";
    case NcclProtocol::ll128: return "LL128";
    case NcclProtocol::simple: return "Simple";
    case NcclProtocol::auto_choice: break;
  }
  return "auto";
}

bool nccl_has_protocol(const NcclVersion& version, NcclProtocol protocol) {
  return protocol != NcclProtocol::ll128 || version.at_least(2, 5);
}

NcclSettings read_nccl_settings(const nlohmann::json& value, const std::string& file, const std::string& path,
                                NcclSettings base) {
  JsonObjectReader reader(value, file, path);
  if (auto text = reader.optional_string("version")) {
    const auto version = parse_nccl_version(*text);
    if (!version)
      reader.fail("version", fmt::format("expected an NCCL version from 2.4 on, such as \"2.18\" or \"2.23.4\", found \"{}\"", *text));
    base.version_text = *text;
    base.version = *version;
    base.version_given = true;
  }
  if (auto channels = reader.optional_int("channels", 1, kNcclMaxChannels)) base.channels = static_cast<int>(*channels);
  if (auto protocol = reader.optional_string("protocol")) {
    bool known = false;
    for (NcclProtocol p : {NcclProtocol::auto_choice, NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple})
      if (*protocol == protocol_name(p)) base.protocol = p, known = true, base.protocol_given = true;
    if (!known)
      reader.fail("protocol", fmt::format("expected \"auto\", \"LL\", \"LL128\" or \"Simple\", found \"{}\"", *protocol));
  }
  if (!nccl_has_protocol(base.version, base.protocol))
    reader.fail("protocol", fmt::format("LL128 came with NCCL 2.5; version is \"{}\" (use \"LL\" or \"Simple\")", base.version_text));
  if (const auto size = reader.optional("buffsize")) {
    const std::optional<std::uint64_t> bytes = size->byte_count();
    // 8 steps of at least 8 KiB each; NCCL's slices are a quarter of the buffer.
    if (!bytes || *bytes < (64u << 10) || *bytes > (1ULL << 30) || *bytes % 4096 != 0)
      reader.fail("buffsize", fmt::format("expected NCCL_BUFFSIZE between 64KiB and 1GiB, a multiple of 4KiB, such as \"4MiB\"; "
                                          "found {}", describe_json(size->json())));
    base.buffsize = *bytes;
  }
  if (auto capability = reader.optional_int("compute_capability", 60, 120)) {
    if (*capability % 10 != 0)
      reader.fail("compute_capability", fmt::format("expected 70, 80, 90 or another multiple of 10, found {}", *capability));
    base.compute_capability = static_cast<int>(*capability);
    base.compute_capability_given = true;
  }
  if (auto handshake = reader.optional_bool("handshake")) base.handshake = *handshake;
  if (auto latency = reader.optional_latency("net_latency")) {
    base.net_latency_s = *latency;
    base.net_latency_given = true;
  }
  reader.finish();
  return base;
}

nlohmann::json nccl_settings_json(const NcclSettings& settings) {
  nlohmann::json json = {{"version", settings.version_text},
                         {"protocol", protocol_name(settings.protocol)},
                         {"buffsize", settings.buffsize},
                         {"compute_capability", settings.compute_capability}};
  if (settings.channels) json["channels"] = *settings.channels;
  if (!settings.handshake) json["handshake"] = false;
  if (settings.net_latency_s > 0) json["net_latency"] = fmt::format("{}us", settings.net_latency_s * 1e6);
  return json;
}


}  // namespace ringsim
