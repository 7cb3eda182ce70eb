// The SimGrid platform library (libringsim-platform.so): SimGrid's Engine::load_platform (and so
// `smpirun -platform`) dlopens a path ending in ".so" and calls its load_platform(). Ours builds the
// platform plan written by the launcher (plan_file.h), whose path it reads from the environment:
//     RINGSIM_PLATFORM_PLAN=work/platform-plan.json smpirun -platform build/libringsim-platform.so ...
// or, in a program on the S4U API: setenv(kPlatformPlanVariable, plan, 1); engine.load_platform(library).
#pragma once

namespace ringsim {

inline constexpr const char* kPlatformPlanVariable = "RINGSIM_PLATFORM_PLAN";
inline constexpr const char* kPlatformLibraryName = "libringsim-platform.so";

}  // namespace ringsim
