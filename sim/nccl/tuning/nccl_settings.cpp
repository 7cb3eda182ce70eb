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

namespace {

// A latency for every key of KEYS, or an object naming some of them (the others keep BASE's).
template <std::size_t N>
std::array<double, N> read_step_costs(const JsonValue& value, const std::array<std::string_view, N>& keys, std::array<double, N> base) {
  if (value.json().is_string()) {
    const std::optional<double> seconds = parse_latency(value.json().get<std::string>());
    if (!seconds || *seconds < 0) value.fail(fmt::format("expected a latency such as \"2us\", found {}", describe_json(value.json())));
    base.fill(*seconds);
    return base;
  }
  JsonObjectReader each = value.object();
  for (std::size_t i = 0; i < N; ++i)
    if (auto seconds = each.optional_latency(keys[i])) base[i] = *seconds;
  each.finish();
  return base;
}

constexpr std::array<std::string_view, 2> kIntraKeys{"nvlink", "pcie"};
constexpr std::array<std::string_view, 3> kNetKeys{"verbs", "ofi", "socket"};
constexpr std::array<std::string_view, 3> kProtocolKeys{"LL", "LL128", "Simple"};  // NcclWire's order

NcclSoftwareCosts read_software_costs(const nlohmann::json& value, const std::string& file, const std::string& path,
                                      NcclSoftwareCosts base) {
  JsonObjectReader reader(value, file, path);
  if (auto call = reader.optional_latency("call")) base.call_s = *call;
  if (auto intra = reader.optional("intra_step")) {
    const auto steps = read_step_costs(*intra, kIntraKeys, std::array<double, 2>{base.nvlink_step_s, base.pcie_step_s});
    base.nvlink_step_s = steps[0];
    base.pcie_step_s = steps[1];
  }
  if (auto net = reader.optional("net_step")) base.net_step_s = read_step_costs(*net, kNetKeys, base.net_step_s);
  if (auto per_gb = reader.optional("per_gb")) base.per_gb_s = read_step_costs(*per_gb, kProtocolKeys, base.per_gb_s);
  reader.finish();
  return base;
}

std::string microseconds(double seconds) { return fmt::format("{:g}us", seconds * 1e6); }

}  // namespace

nlohmann::json nccl_software_costs_json(const NcclSoftwareCosts& costs) {
  nlohmann::json net = nlohmann::json::object();
  for (std::size_t i = 0; i < kNetKeys.size(); ++i) net[std::string(kNetKeys[i])] = microseconds(costs.net_step_s[i]);
  nlohmann::json per_gb = nlohmann::json::object();
  for (std::size_t i = 0; i < kProtocolKeys.size(); ++i) per_gb[std::string(kProtocolKeys[i])] = microseconds(costs.per_gb_s[i]);
  return {{"call", microseconds(costs.call_s)},
          {"intra_step", {{"nvlink", microseconds(costs.nvlink_step_s)}, {"pcie", microseconds(costs.pcie_step_s)}}},
          {"net_step", net},
          {"per_gb", per_gb}};
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
  if (auto flows = reader.optional_string("p2p_flows")) {
    if (*flows != "parts" && *flows != "chunks")
      reader.fail("p2p_flows", fmt::format("expected \"parts\" (one paced message per part) or \"chunks\" (one per chunk), found \"{}\"", *flows));
    base.p2p_flow_per_chunk = *flows == "chunks";
  }
  if (auto latency = reader.optional_latency("net_latency")) {
    base.net_latency_s = *latency;
    base.net_latency_given = true;
  }
  if (const nlohmann::json* software = reader.optional_value("software"))
    base.software = read_software_costs(*software, file, reader.path_of("software"), base.software);
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
  if (settings.p2p_flow_per_chunk) json["p2p_flows"] = "chunks";
  if (settings.net_latency_s > 0) json["net_latency"] = fmt::format("{}us", settings.net_latency_s * 1e6);
  json["software"] = nccl_software_costs_json(settings.software);  // the learned defaults too: they may change
  return json;
}


}  // namespace ringsim
