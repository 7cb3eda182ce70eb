#include "smpi_case.h"

#include "../common/atomic_file.h"

#include <cstdlib>
#include <deque>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace ringsim {
namespace {

std::filesystem::path own_directory() {
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : exe.parent_path();
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string_view dirs = path;
  for (std::size_t from = 0; from <= dirs.size();) {
    std::size_t colon = std::min(dirs.find(':', from), dirs.size());
    auto candidate = std::filesystem::path(dirs.substr(from, colon - from)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    from = colon + 1;
  }
  return false;
}

}  // namespace

SmpiTools find_smpi_tools() {
  SmpiTools tools;
  const char* smpirun = std::getenv("RINGSIM_SMPIRUN");
  tools.smpirun = smpirun != nullptr ? smpirun : "smpirun";
  if (smpirun == nullptr && !on_path("smpirun"))
    throw std::runtime_error("smpirun not found on PATH: install SimGrid (apt-get install simgrid libsimgrid-dev) "
                             "or run tools/demo.sh, or set RINGSIM_SMPIRUN");
  const char* library = std::getenv("RINGSIM_RANK_LIBRARY");
  tools.rank_library = library != nullptr ? std::filesystem::path(library) : own_directory() / "ringsim-rank-smpi.so";
  if (!std::filesystem::is_regular_file(tools.rank_library))
    throw std::runtime_error(fmt::format("rank program {} not found: build it (cmake --build build) "
                                         "or set RINGSIM_RANK_LIBRARY",
                                         tools.rank_library.string()));
  return tools;
}

PreparedCase prepare_smpi_case(const Scenario& scenario, const std::filesystem::path& platform_xml,
                               const ClusterLayout& layout, const SimulationCase& spec,
                               const std::filesystem::path& case_dir, const SmpiTools& tools, bool record_events) {
  std::filesystem::create_directories(case_dir);
  const auto hosts = hosts_of_ranks(spec.placement, layout);
  std::string hostfile;
  for (const auto& host : hosts) hostfile += host + "\n";
  write_file_atomically(case_dir / "hostfile", hostfile);

  PreparedCase prepared;
  prepared.report = case_dir / "report.json";
  prepared.command.log = case_dir / "smpi.log";
  auto& argv = prepared.command.argv;
  argv = {tools.smpirun.string(),
          "-np",
          std::to_string(hosts.size()),
          "-platform",
          std::filesystem::absolute(platform_xml).string(),
          "-hostfile",
          (case_dir / "hostfile").string(),
          // The rank code keeps no mutable globals, so one copy of the library serves every rank.
          "-no-privatize",
          // Simulated time comes from the platform only: communication, plus smpi_execute_flops()
          // for the reduction. Measured host CPU bursts would make results depend on this machine.
          "--cfg=smpi/simulate-computation:no",
          // Shared buffers are mapped block by block; 1 MiB blocks exhaust vm.max_map_count
          // (65530) at 512 ranks x 3 buffers x 64 MiB. 64 MiB blocks need 64x fewer mappings.
          "--cfg=smpi/shared-malloc-blocksize:67108864",
          "--log=root.thresh:warning"};
  for (const auto& arg : scenario.model.cfg_arguments()) argv.push_back(arg);
  std::string sizes;
  for (auto bytes : scenario.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(bytes);
  for (const std::string& arg : {tools.rank_library.string(), std::string("--algorithm"), spec.algorithm,
                                 std::string("--sizes"), sizes, std::string("--iterations"),
                                 std::to_string(scenario.iterations), std::string("--warmup"),
                                 std::to_string(scenario.warmup), std::string("--out"), prepared.report.string()})
    argv.push_back(arg);
  if (record_events) {
    prepared.events = case_dir / "events.jsonl";
    argv.push_back("--events");
    argv.push_back(prepared.events.string());
  }
  std::filesystem::remove(prepared.report);
  return prepared;
}

CaseResult read_case_report(const PreparedCase& prepared, const SimulationCase& spec,
                            const std::vector<std::uint64_t>& sizes) {
  std::ifstream in(prepared.report);
  if (!in) throw std::runtime_error(fmt::format("the rank program wrote no report ({})", prepared.report.string()));
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: unreadable report: {}", prepared.report.string(), e.what()));
  }
  CaseResult result;
  result.spec = spec;
  try {
    result.ranks = report.at("ranks").get<int>();
    for (const auto& entry : report.at("sizes")) {
      SizeResult size;
      size.bytes = entry.at("bytes").get<std::uint64_t>();
      size.times_s = entry.at("times_s").get<std::vector<double>>();
      if (!entry.at("wrong").is_null()) size.wrong = entry.at("wrong").get<long long>();
      result.sizes.push_back(std::move(size));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: malformed report: {}", prepared.report.string(), e.what()));
  }
  if (result.sizes.size() != sizes.size() || result.ranks != spec.placement.total_ranks())
    throw std::runtime_error(fmt::format("{}: report does not match the case (ranks {}, sizes {})",
                                         prepared.report.string(), result.ranks, result.sizes.size()));
  return result;
}

std::string log_tail(const std::filesystem::path& log, std::size_t lines) {
  std::ifstream in(log);
  std::deque<std::string> tail;
  for (std::string line; std::getline(in, line);) {
    tail.push_back(line);
    if (tail.size() > lines) tail.pop_front();
  }
  std::string text;
  for (const auto& line : tail) text += "  | " + line + "\n";
  return text;
}

}  // namespace ringsim
