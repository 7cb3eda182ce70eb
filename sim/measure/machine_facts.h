// What a measured trace records about where and when it was made (the results' "source" block).
#pragma once

#include <nlohmann/json.hpp>

namespace ringsim {

// {"cpu", "cores", "memory_GiB", "kernel", "nics": [{"name", "speed_Mbps"}]} of this machine.
nlohmann::json local_machine_facts();

// Current UTC time, ISO 8601.
std::string utc_timestamp();

}  // namespace ringsim
