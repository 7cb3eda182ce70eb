#include "nccl_settings.h"

#include "../../common/units.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

std::string_view protocol_name(NcclProtocol protocol) {
  switch (protocol) {
    case NcclProtocol::ll: return "LL";
    case NcclProtocol::ll128: return "LL128";
    case NcclProtocol::simple: return "Simple";
    case NcclProtocol::auto_choice: break;
  }
  return "auto";
}

bool nccl_has_protocol(const NcclRelease& release, NcclProtocol protocol) {
  return protocol != NcclProtocol::ll128 || release.ll128;
}

NcclSettings read_nccl_settings(const nlohmann::json& value, const std::string& file, const std::string& path,
                                NcclSettings base) {
  JsonObjectReader reader(value, file, path);
  if (auto text = reader.optional_string("version")) {
    const auto version = parse_nccl_version(*text);
    if (!version)
      reader.fail("version", fmt::format("expected an NCCL version from 2.4 on, such as \"2.18\" or \"2.23.4\", found \"{}\"", *text));
    base.version_text = *text;
    base.set_version(*version);
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
  if (!nccl_has_protocol(*base.release, base.protocol))
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
  if (auto pxn = reader.optional_bool("pxn")) base.pxn_disabled = !*pxn;
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
  if (settings.pxn_disabled) json["pxn"] = false;
  if (settings.net_latency_s > 0) json["net_latency"] = fmt::format("{}us", settings.net_latency_s * 1e6);
  return json;
}


}  // namespace ringsim
