#include "nic_assignment.h"

#include <algorithm>
#include <fmt/format.h>

namespace ringsim {

NicAssignment assign_nics(const std::vector<std::vector<std::optional<int>>>& distance, int nics) {
  std::vector<int> takers(static_cast<std::size_t>(nics), 0);
  std::vector<int> chosen;
  for (const auto& row : distance) {
    int best = -1;
    for (int n = 0; n < nics && n < static_cast<int>(row.size()); ++n) {
      const auto& d = row[static_cast<std::size_t>(n)];
      if (!d) continue;
      if (best < 0) {
        best = n;
        continue;
      }
      const int best_distance = *row[static_cast<std::size_t>(best)];
      if (*d < best_distance || (*d == best_distance && takers[static_cast<std::size_t>(n)] < takers[static_cast<std::size_t>(best)])) best = n;
    }
    if (best >= 0) ++takers[static_cast<std::size_t>(best)];
    chosen.push_back(best);
  }
  NicAssignment assignment;
  std::vector<int> index_of(static_cast<std::size_t>(nics), -1);
  for (int n = 0; n < nics; ++n)
    if (takers[static_cast<std::size_t>(n)] > 0) {
      index_of[static_cast<std::size_t>(n)] = static_cast<int>(assignment.used.size());
      assignment.used.push_back(n);
    }
  for (const int n : chosen) assignment.affinity.push_back(n < 0 ? -1 : index_of[static_cast<std::size_t>(n)]);
  return assignment;
}

void state_no_nic_beside_gpus(PrintFacts& facts, int gpus, const std::string& at) {
  std::vector<std::string> names;
  for (const NicFact& nic : facts.nics) names.push_back(nic.name);
  facts.used_nics = Sourced<std::vector<std::string>>{names, at};
  if (gpus > 0) facts.nic_affinity = Sourced<std::vector<int>>{std::vector<int>(static_cast<std::size_t>(gpus), -1), at};
  facts.notes.push_back(fmt::format("{}: no NIC sits beside a GPU (each is across the host, on a CPU's root complex): GPU g "
                                    "uses NIC g*nics/gpus, and NCCL stages through host memory unless told otherwise",
                                    facts.file));
}

std::optional<NicTransport> transport_of_nic_name(std::string_view name) {
  const auto starts = [&](std::string_view prefix) { return name.starts_with(prefix); };
  if (starts("efa") || starts("rdmap")) return NicTransport::efa;
  if (starts("cxi")) return NicTransport::cxi;
  if (starts("bnxt_re") || starts("irdma") || starts("qedr") || starts("rocep") || starts("ionic")) return NicTransport::roce;
  if (starts("eth") || starts("ens") || starts("eno") || starts("enp") || starts("bond")) return NicTransport::tcp;
  return std::nullopt;
}

}  // namespace ringsim
