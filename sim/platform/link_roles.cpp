#include "link_roles.h"

#include "topology.h"


namespace ringsim {

std::optional<NamedLinkRole> role_of_written_link(std::string_view name) {
  if (name.find("-background-") != std::string_view::npos) return NamedLinkRole{LinkRole::background, ""};
  if (name.find("-pcie-switch") != std::string_view::npos) return NamedLinkRole{LinkRole::pcie_switch, ""};
  if (name.ends_with("-host-pcie")) return NamedLinkRole{LinkRole::host_pcie, ""};
  if (name == kRailSpineLinkName) return NamedLinkRole{LinkRole::rail_spine, ""};
  if (name.starts_with("rail") && name.ends_with("-leaf-uplink")) return NamedLinkRole{LinkRole::rail_uplink, ""};
  if (name.starts_with("rail") && name.ends_with("-leaf")) return NamedLinkRole{LinkRole::rail_leaf, ""};
  if (name == kSpineLinkName) return NamedLinkRole{LinkRole::spine, ""};
  if (name.ends_with("-uplink")) return NamedLinkRole{LinkRole::uplink, ""};
  if (name.ends_with("-switch")) return NamedLinkRole{LinkRole::switch_link, ""};
  if (name.ends_with("-intra")) return NamedLinkRole{LinkRole::bus, ""};
  if (constexpr std::string_view stack = "-stack"; name.ends_with(stack))
    return NamedLinkRole{LinkRole::stack, std::string(name.substr(0, name.size() - stack.size()))};
  for (std::string_view port : {"-nvlink", "-pcie", "-shm"})
    if (name.ends_with(port)) return NamedLinkRole{LinkRole::gpu_port, ""};
  // "-nic", then the NIC's index when the node has several.
  const std::string_view digits = "0123456789";
  const std::size_t end = name.find_last_not_of(digits);
  if (end != std::string_view::npos && name.substr(0, end + 1).ends_with("-nic")) return NamedLinkRole{LinkRole::nic, ""};
  return std::nullopt;
}

}  // namespace ringsim
