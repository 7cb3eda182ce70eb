// What each link of a platform is for. The platform plan (platform_plan.h) gives every link its role
// as it creates it; a SimGrid XML platform has no roles, so its links' roles are read back from the
// names the XML writer gives them (platform_xml.h), the only place a role is told from a name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ringsim {

// rail_leaf, rail_uplink, rail_spine: a rail-optimized fabric's leaf switch of one rail, that leaf's
// uplink and the spine joining the leaves (topology.h RailFabric).
enum class LinkRole { bus, gpu_port, nic, stack, switch_link, uplink, spine, background, pcie_switch, host_pcie, rail_leaf, rail_uplink, rail_spine };

struct NamedLinkRole {
  LinkRole role = LinkRole::bus;
  std::string host;  // a process stack's host (role stack), else empty
};

// The role of a SimGrid XML link named as `ringsim platform` names them ("node0-nic", "node0-nic1",
// "node0-gpu0-stack", "node0-intra", "node0-gpu0-nvlink", "rack0-switch", "rack0-uplink", "spine",
// "node0-nic-background-up", "node0-pcie-switch1", "node0-gpu0-host-pcie", "rail0-leaf",
// "rail0-leaf-uplink", "rail-spine"); none for any other name (a hand-written platform's link).
std::optional<NamedLinkRole> role_of_written_link(std::string_view name);

}  // namespace ringsim
