#include "topology_separation.h"

#include <filesystem>
#include <map>
#include <set>

namespace ringsim {

void separate_topologies(ResultsDocument& results) {
  std::set<std::string> files;
  for (const ResultRow& row : results.rows) files.insert(row.topology);
  if (files.size() < 2) return;
  std::map<std::string, std::string> name_of;
  std::map<std::string, int> stem_uses;
  for (const std::string& file : files) ++stem_uses[std::filesystem::path(file).stem().string()];
  for (const std::string& file : files) {
    const std::string stem = std::filesystem::path(file).stem().string();
    name_of[file] = file.empty() ? "no topology named" : stem_uses[stem] > 1 ? file : stem;
  }
  for (ResultRow& row : results.rows) {
    const std::string& name = name_of[row.topology];
    row.variant = row.variant.empty() ? name : row.variant + ", " + name;
  }
}

}  // namespace ringsim
