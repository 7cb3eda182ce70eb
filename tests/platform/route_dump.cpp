// Prints the route between every ordered pair of hosts of a platform, one line each:
//     SRC -> DST: LINK LINK ... | LATENCY
// with SimGrid's link names (a split-duplex link crossed up is "NAME_UP").
//   route_dump PLATFORM.xml|LIBRARY.so   routes SimGrid computes on the loaded platform
//   route_dump --plan PLAN.json          routes of the platform plan (platform_plan.h), no SimGrid
//   route_dump --summary PLATFORM        loads the platform and prints its host and link counts only
//                                        (tools/bench-platform.sh times it)
//   route_dump --summary-to FILE PLATFORM  the routes, and the counts written to FILE, from one load
//                                        (each load of SimGrid costs a process start of ~0.1 s)
// tests/platform/routes_match.sh compares the three: XML, platform library, plan.
#include "../../sim/platform/plan_file.h"
#include "../../sim/platform/platform_plan.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/os.h>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <string>
#include <vector>

namespace {

void print_route(const std::string& from, const std::string& to, const std::vector<std::string>& links, double latency) {
  fmt::print("{} -> {}: {} | {:.17g}\n", from, to, fmt::join(links, " "), latency);
}

// "hosts H links L" of the loaded platform.
std::string platform_summary(const simgrid::s4u::Engine& engine) {
  // A never-binding switch's per-member copies (plan_zone.h) stand for the one link the XML has.
  const auto links = engine.get_all_links();
  const auto copies = std::count_if(links.begin(), links.end(), [](const auto* link) { return link->get_name().find('@') != std::string::npos; });
  return fmt::format("hosts {} links {}\n", engine.get_host_count(), links.size() - static_cast<std::size_t>(copies));
}

// SUMMARY_TO: where the summary goes ("-": standard output, and no routes; empty: nowhere).
int dump_simgrid(int argc, char** argv, const std::string& summary_to) {
  simgrid::s4u::Engine engine(&argc, argv);
  engine.load_platform(argv[1]);
  if (summary_to == "-") {
    fmt::print("{}", platform_summary(engine));
    return 0;
  }
  if (!summary_to.empty()) fmt::output_file(summary_to).print("{}", platform_summary(engine));
  std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  for (auto* from : hosts)
    for (auto* to : hosts) {
      if (from == to) continue;
      std::vector<simgrid::s4u::Link*> route;
      double latency = 0;
      from->route_to(to, route, &latency);
      std::vector<std::string> names;
      for (const auto* link : route) names.push_back(link->get_name().substr(0, link->get_name().find('@')));
      print_route(from->get_name(), to->get_name(), names, latency);
    }
  return 0;
}

int dump_plan(const char* file) {
  const auto [topology, model] = ringsim::read_plan_file(file);
  const ringsim::PlatformPlan plan(topology, model);
  std::vector<std::pair<std::string, ringsim::HostRef>> hosts;
  for (std::size_t n = 0; n < plan.nodes().size(); ++n)
    for (std::size_t g = 0; g < plan.nodes()[n].hosts.size(); ++g) hosts.push_back({plan.nodes()[n].hosts[g], {n, static_cast<int>(g)}});
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [from_name, from] : hosts)
    for (const auto& [to_name, to] : hosts) {
      if (from_name == to_name) continue;
      std::vector<std::string> names;
      for (const ringsim::Hop& hop : plan.route(from, to)) {
        const ringsim::PlanLink& link = plan.links()[hop.link];
        names.push_back(link.name + (hop.crossing == ringsim::Crossing::up ? "_UP" : hop.crossing == ringsim::Crossing::down ? "_DOWN" : ""));
      }
      print_route(from_name, to_name, names, plan.route_latency(from, to));
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--plan") return dump_plan(argv[2]);
  std::string summary_to;
  if (argc == 3 && std::string(argv[1]) == "--summary") summary_to = "-";
  if (argc == 4 && std::string(argv[1]) == "--summary-to") summary_to = argv[2];
  if (argc == 2 || !summary_to.empty()) {
    std::string quiet = "--log=root.thresh:critical";
    char* engine_argv[] = {argv[0], argv[argc - 1], quiet.data(), nullptr};
    int engine_argc = 3;
    return dump_simgrid(engine_argc, engine_argv, summary_to);
  }
  std::fputs("usage: route_dump PLATFORM.xml|LIBRARY.so | route_dump --plan PLAN.json | route_dump --summary PLATFORM\n"
             "       route_dump --summary-to FILE PLATFORM\n", stderr);
  return 2;
}
