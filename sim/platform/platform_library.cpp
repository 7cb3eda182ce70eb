#include "platform_library.h"

#include "plan_file.h"
#include "platform_plan.h"
#include "platform_simgrid.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <simgrid/s4u/Engine.hpp>

// SimGrid has no way to report a failed platform library but to stop: say why in one line, exit 2.
extern "C" void load_platform(const simgrid::s4u::Engine& /*engine*/) {
  const char* plan_file = std::getenv(ringsim::kPlatformPlanVariable);
  if (plan_file == nullptr) {
    std::fprintf(stderr, "%s: set %s to the platform plan to load (ringsim writes it beside each simulation)\n",
                 ringsim::kPlatformLibraryName, ringsim::kPlatformPlanVariable);
    std::exit(2);
  }
  try {
    const auto [topology, model] = ringsim::read_plan_file(plan_file);
    ringsim::build_simgrid_platform(std::make_shared<const ringsim::PlatformPlan>(topology, model));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", ringsim::kPlatformLibraryName, e.what());
    std::exit(2);
  }
}
