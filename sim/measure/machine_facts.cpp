#include "machine_facts.h"

#include <chrono>
#include <fmt/chrono.h>
#include <fstream>
#include <sys/utsname.h>
#include <thread>

namespace ringsim {
namespace {

std::string first_line_of_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string value_after(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      auto colon = line.find(':');
      auto value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
  return "";
}

}  // namespace

nlohmann::json local_machine_facts() {
  utsname names{};
  ::uname(&names);
  nlohmann::json nics = nlohmann::json::array();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/class/net", error)) {
    const std::string name = entry.path().filename().string();
    if (name == "lo") continue;
    // "speed" is unreadable or -1 for virtual NICs: recorded as null.
    const std::string speed = first_line_of_file(entry.path() / "speed");
    const bool known = !speed.empty() && speed.find_first_not_of("0123456789") == std::string::npos;
    nics.push_back({{"name", name}, {"speed_Mbps", known ? nlohmann::json(std::stol(speed)) : nlohmann::json()}});
  }
  const std::string mem_kib = value_after("/proc/meminfo", "MemTotal");
  return {{"cpu", value_after("/proc/cpuinfo", "model name")},
          {"cores", std::thread::hardware_concurrency()},
          {"memory_GiB", mem_kib.empty() ? 0.0 : std::stod(mem_kib) / (1024.0 * 1024.0)},
          {"kernel", fmt::format("{} {}", names.sysname, names.release)},
          {"nics", nics}};
}

std::string utc_timestamp() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

}  // namespace ringsim
