// What the platform library reads: a topology as the model has shaped it, and the model's platform
// settings, as JSON with every value in SI units (bytes/s, seconds, flops). Doubles are written in
// shortest round-trip form, so the library builds the very links the launcher planned. One entry per
// node: the file grows with the nodes (4096 single-GPU nodes: under 1 MB).
#pragma once

#include "platform_xml.h"
#include "topology.h"

#include <filesystem>
#include <string>
#include <utility>

namespace ringsim {

std::string plan_file_json(const Topology& topology, const PlatformModel& model);

// Throws InputError naming FILE when it cannot be read or is not a plan file.
std::pair<Topology, PlatformModel> read_plan_file(const std::filesystem::path& file);

}  // namespace ringsim
