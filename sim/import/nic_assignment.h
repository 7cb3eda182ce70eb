// Which NIC each GPU of a node uses, from how far each GPU is from each NIC (NCCL's paths: PIX, PXB
// beside; PHB, NODE, SYS across the host), as NCCL pairs a GPU with its nearest NIC.
#pragma once

#include "print_facts.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ringsim {

struct NicAssignment {
  std::vector<int> used;      // indices of the NICs beside some GPU, in the print's order
  std::vector<int> affinity;  // per GPU: its NIC as an index into `used`, or -1 for none beside it
};

// DISTANCE[g][n]: how far GPU g is from NIC n when beside it (smaller is nearer), nullopt when not. Each
// GPU takes its nearest NIC; among equally near ones the one fewest GPUs took so far, so that two GPUs
// under a switch with two NICs (or a dual-port NIC) take one each.
NicAssignment assign_nics(const std::vector<std::vector<std::optional<int>>>& distance, int nics);

// A node whose NICs all sit across the host from every GPU (on the CPU's root complex, as AWS p3dn's EFA):
// NCCL still uses them, so FACTS' used NICs are all of them, and each of the GPUS has none beside it
// (nic_affinity null: GPU g leaves through NIC g*nics/gpus), with a note saying what that implies.
// AT: where the print lists them.
void state_no_nic_beside_gpus(PrintFacts& facts, int gpus, const std::string& at);

// The transport a NIC's device name implies where it implies one: "efa_0", "rdmap..." EFA; "bnxt_re0",
// "irdma..", "qedr.." RoCE; "cxi0" Slingshot's cxi; "eth0", "ens..", "eno.." TCP. "mlx5_0" may be InfiniBand or RoCE: nullopt.
std::optional<NicTransport> transport_of_nic_name(std::string_view name);

}  // namespace ringsim
