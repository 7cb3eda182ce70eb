#include "cluster_layout.h"

#include "../common/input_error.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace ringsim {
namespace {

// "gpu2" < "gpu10": compare digit runs by value.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end]))) ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end]))) ++j_end;
      auto na = a.substr(i, i_end - i), nb = b.substr(j, j_end - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = i_end, j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::string> sorted_host_names(const std::vector<simgrid::s4u::Host*>& hosts) {
  std::vector<std::string> names;
  for (const auto* host : hosts) names.emplace_back(host->get_name());
  std::sort(names.begin(), names.end(), natural_less);
  return names;
}

void collect_nodes(const simgrid::s4u::NetZone* zone, ClusterLayout& layout) {
  const auto children = zone->get_children();
  if (children.empty()) {
    const auto hosts = zone->get_all_hosts();
    if (!hosts.empty()) layout.nodes.push_back({zone->get_name(), sorted_host_names(hosts)});
    return;
  }
  for (const auto* child : children) collect_nodes(child, layout);
}

ClusterLayout layout_of_loaded_platform(const simgrid::s4u::Engine& engine, const std::filesystem::path& file) {
  ClusterLayout layout;
  const simgrid::s4u::NetZone* root = engine.get_netzone_root();
  if (root->get_children().empty()) {
    // A flat platform: every host is a node with a single slot.
    for (const auto& name : sorted_host_names(root->get_all_hosts())) layout.nodes.push_back({name, {name}});
  } else {
    collect_nodes(root, layout);
  }
  if (layout.nodes.empty()) throw InputError(fmt::format("{}: the platform declares no host", file.string()));
  return layout;
}

// A new engine of this process with FILE loaded; SimGrid's exceptions pass through.
simgrid::s4u::Engine* new_engine_with(const std::filesystem::path& file) {
  int argc = 2;
  std::string program = "ringsim", quiet = "--log=root.thresh:critical";
  char* argv[] = {program.data(), quiet.data(), nullptr};
  auto* engine = new simgrid::s4u::Engine(&argc, argv);
  engine->load_platform(file.string());
  return engine;
}

}  // namespace

const simgrid::s4u::Engine& simgrid_platform(const std::filesystem::path& file) {
  // SimGrid's engine is a process-wide singleton that loads one platform: keep it for later readers,
  // until exit (never destroyed: SimGrid's teardown during static destruction is not something to rely on).
  static simgrid::s4u::Engine* engine = nullptr;
  static std::filesystem::path loaded;
  if (engine) {
    if (loaded != file)
      throw InputError(fmt::format("{}: one SimGrid platform per run; {} is already loaded", file.string(), loaded.string()));
    return *engine;
  }
  if (!std::filesystem::is_regular_file(file))
    throw InputError(fmt::format("{}: cannot read file (does it exist?)", file.string()));
  check_simgrid_xml(file);
  try {
    engine = new_engine_with(file);
  } catch (const std::exception& e) {  // the child loaded it: not expected, but never a raw SimGrid error
    throw InputError(fmt::format("{}:1: not a valid SimGrid platform: {}", file.string(), e.what()));
  }
  loaded = file;
  return *engine;
}

ChildLoad load_simgrid_xml_in_child(const std::filesystem::path& file) {
  return load_in_child(file, [&] { layout_of_loaded_platform(*new_engine_with(file), file); });
}

void check_simgrid_xml(const std::filesystem::path& file) { throw_unless_loaded(file, load_simgrid_xml_in_child(file)); }

namespace {

ClusterLayout layout_of_simgrid_xml(const std::filesystem::path& file) {
  return layout_of_loaded_platform(simgrid_platform(file), file);
}

}  // namespace

ClusterLayout layout_of(const Topology& topology) {
  ClusterLayout layout;
  for (const RackSpec& rack : topology.racks)
    for (const NodeSpec& node : rack.nodes) {
      NodeSlots slots{node.name, {}};
      for (int g = 0; g < node.gpus; ++g) slots.hosts.push_back(host_name(node, g));
      layout.nodes.push_back(std::move(slots));
    }
  return layout;
}

Platform load_platform(const std::filesystem::path& file) {
  Platform platform;
  platform.source = file;
  if (file.extension() == ".xml") {
    platform.layout = layout_of_simgrid_xml(file);
  } else {
    platform.topology = load_topology(file);
    platform.layout = layout_of(*platform.topology);
  }
  return platform;
}

}  // namespace ringsim
