// `ibstat` ("CA 'mlx5_0'", its ports' State, Rate, Link layer) and `ibv_devinfo` ("hca_id: mlx5_0",
// transport, vendor_part_id, ports' state, link_layer, and with -v active_width and active_speed): each
// HCA's active port rate and link layer (Ethernet: RoCE), and whether it is a virtual function.
#include "../nic_assignment.h"
#include "../print_readers.h"

#include "../../common/input_error.h"
#include "../../validate/text_table.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

// Mellanox's virtual functions carry the even device ids from Connect-IB's VF (4114) to mlx5Gen's (4126).
bool virtual_function_id(std::string_view id) {
  const auto number = parse_count(id.starts_with("MT") ? id.substr(2) : id);
  return number && *number >= 4114 && *number <= 4126 && *number % 2 == 0;
}

struct PortReading {
  bool active = false;
  std::optional<double> rate_Gbps;
  std::optional<double> width;       // ibv_devinfo -v: active_width 4X
  std::optional<double> lane_Gbps;   // ibv_devinfo -v: active_speed 50.0 Gbps
  std::optional<NicTransport> transport;
};

struct HcaReading {
  NicFact nic;
  std::vector<PortReading> ports;
};

[[noreturn]] void fail(const std::string& file, int line, const std::string& message) {
  throw InputError(fmt::format("{}:{}: {}", file, line, message));
}

// "key: value" (ibstat) or "key:\tvalue" (ibv_devinfo).
std::pair<std::string_view, std::string_view> key_value(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return {};
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  };
  return {trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

std::optional<NicTransport> link_layer(std::string_view value) {
  if (value.starts_with("InfiniBand")) return NicTransport::ib;
  if (value.starts_with("Ethernet")) return NicTransport::roce;
  return std::nullopt;
}

void read_port_line(std::string_view key, std::string_view value, const std::string& file, int line, PortReading& port) {
  const auto first_word = value.substr(0, value.find_first_of(" \t("));
  if (key == "State" || key == "state") {
    port.active = value.starts_with("Active") || value.starts_with("PORT_ACTIVE");
  } else if (key == "Rate") {
    const auto rate = parse_number(first_word);
    if (!rate || *rate <= 0 || *rate > 1e5) fail(file, line, fmt::format("expected a rate in Gb/s such as 200, found \"{}\"", value));
    port.rate_Gbps = *rate;
  } else if (key == "Link layer" || key == "link_layer") {
    // EFA's verbs device says "Unspecified": its transport comes from its name (efa_0).
    port.transport = link_layer(value);
    if (!port.transport && !value.starts_with("Unspecified"))
      fail(file, line, fmt::format("expected the link layer InfiniBand, Ethernet or Unspecified, found \"{}\"", value));
  } else if (key == "active_width") {
    const auto width = parse_count(first_word.substr(0, first_word.find('X')));
    if (!width || *width == 0 || *width > 32) fail(file, line, fmt::format("expected a width such as 4X, found \"{}\"", value));
    port.width = static_cast<double>(*width);
  } else if (key == "active_speed") {
    const auto speed = parse_number(first_word);
    if (!speed || *speed <= 0 || *speed > 1e4) fail(file, line, fmt::format("expected a lane speed such as 50.0 Gbps, found \"{}\"", value));
    port.lane_Gbps = *speed;
  }
}

// An HCA's facts from its ports: the first active one (or the first when none is).
NicFact finished_nic(HcaReading hca, const std::string& file, PrintFacts& facts) {
  const PortReading* chosen = nullptr;
  for (const PortReading& port : hca.ports)
    if (port.active && chosen == nullptr) chosen = &port;
  if (chosen == nullptr && !hca.ports.empty()) {
    chosen = &hca.ports.front();
    facts.notes.push_back(fmt::format("{}: {} has no active port", file, hca.nic.name));
  }
  if (chosen != nullptr) {
    hca.nic.rate_Gbps = chosen->rate_Gbps;
    if (!hca.nic.rate_Gbps && chosen->width && chosen->lane_Gbps) hca.nic.rate_Gbps = *chosen->width * *chosen->lane_Gbps;
    if (chosen->transport) hca.nic.transport = chosen->transport;
  }
  return hca.nic;
}

// "CA 'mlx5_0'" or "hca_id:\tmlx5_0": the HCA's name, or nullopt.
std::optional<std::string> hca_name(std::string_view line, const std::string& file, int number) {
  if (line.starts_with("CA '")) {
    const auto end = line.find('\'', 4);
    if (end == std::string_view::npos || end == 4) fail(file, number, "expected CA 'NAME' with the HCA's name in quotes");
    return std::string(line.substr(4, end - 4));
  }
  if (line.starts_with("hca_id:")) {
    const auto [key, value] = key_value(line);
    if (value.empty()) fail(file, number, "expected hca_id: NAME");
    return std::string(value);
  }
  return std::nullopt;
}

}  // namespace

bool detect_ibstat(std::string_view text) {
  for (const auto& [number, line] : split_lines(text)) {
    if (line.starts_with("CA '") || line.starts_with("hca_id:")) return true;
    if (number > 50) break;
  }
  return false;
}

PrintFacts read_ibstat(std::string_view text, const std::string& file) {
  PrintFacts facts;
  facts.file = file;
  facts.kind = "ibstat";
  std::optional<HcaReading> hca;
  for (const auto& [number, line] : split_lines(text)) {
    if (auto name = hca_name(line, file, number)) {
      if (hca) facts.nics.push_back(finished_nic(std::move(*hca), file, facts));
      hca = HcaReading{};
      hca->nic.name = *name;
      hca->nic.transport = transport_of_nic_name(*name);
      hca->nic.where = fmt::format("{}:{}", file, number);
      continue;
    }
    const auto [key, value] = key_value(line);
    if (key.empty()) continue;
    if (!hca) fail(file, number, fmt::format("expected CA 'NAME' (ibstat) or hca_id: NAME (ibv_devinfo) before \"{}\"", key));
    if ((key.starts_with("Port ") && value.empty()) || key == "port") {
      hca->ports.emplace_back();
      continue;
    }
    if (key == "CA type" || key == "vendor_part_id") hca->nic.virtual_function = virtual_function_id(value);
    if (hca->ports.empty()) continue;
    read_port_line(key, value, file, number, hca->ports.back());
  }
  if (hca) facts.nics.push_back(finished_nic(std::move(*hca), file, facts));
  if (facts.nics.empty()) fail(file, 1, "expected CA 'NAME' (ibstat) or hca_id: NAME (ibv_devinfo), found none");
  return facts;
}

}  // namespace ringsim
