// `ringsim measure` on the emulated cluster (root only) and on a hostfile of localhost, plus its
// refusals. A test that cannot run here exits 77, which CTest reports as skipped, with the reason.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../simulation/ringsim_process.h"
#include "../unit/temp_files.h"

#include <chrono>
#include <csignal>
#include <doctest/doctest.h>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <unistd.h>

using namespace ringsim::testing;

namespace {

[[noreturn]] void skip(const std::string& why) {
  std::cout << "SKIPPED: " << why << std::endl;
  std::exit(77);
}

void require_open_mpi() {
  if (std::string(RINGSIM_RANK_MPI).empty() || std::system("command -v mpirun >/dev/null 2>&1") != 0)
    skip("Open MPI is not installed or ringsim-rank-mpi was not built");
}

void require_emulation() {
  require_open_mpi();
  if (::geteuid() != 0) skip("the emulated cluster needs root (network namespaces, tc)");
}

std::string namespaces() { return run_shell("ip netns list", std::filesystem::temp_directory_path()).out; }

// veth interfaces in the host's namespace (the emulated cluster must never create any there).
std::string host_veths() { return run_shell("ip -o link show type veth", std::filesystem::temp_directory_path()).out; }

// Live (non-zombie) processes of the measurement; zombies wait for init to reap them.
std::string leftover_processes(const std::filesystem::path& scratch) {
  return run_shell("ps -eo stat=,comm= | awk '$1 !~ /^Z/ && ($2 == \"orted\" || $2 == \"mpirun\" || $2 == \"ringsim-rank-mp\")'",
                   scratch)
      .out;
}

// 3 nodes x 4 GPUs with NICs of RATE; no latency asked (the kernel here has no netem).
std::filesystem::path emulated_scenario(const TempDir& dir, const std::string& placements, const std::string& sizes,
                                        const std::string& rate = "200Mbps") {
  dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "node", "count": 3, "gpus": 4,
      "nic": {"bandwidth": ")" + rate + R"(", "latency": "0us"}}]}]})");
  return dir.write("scenario.json", R"({"name": "emulated", "topology": "topology.json", "placements": )" +
                                        placements + R"(, "sizes": )" + sizes + R"(, "iterations": 2, "warmup": 1})");
}

}  // namespace

TEST_CASE("emulated 4-2-2 at 16 MiB over 200 Mbit/s is never faster than the shaped links allow") {
  require_emulation();
  TempDir dir;
  const std::string before = namespaces(), veths_before = host_veths();
  const auto scenario = emulated_scenario(dir, R"(["4-2-2"])", R"(["16MiB"])");
  const auto run = run_ringsim("measure " + scenario.string() + " --emulated --quiet --json " +
                                   (dir.path() / "measured.json").string(),
                               dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "measured.json");
  CHECK(results.at("kind") == "measured");
  CHECK(results.at("source").at("mode") == "emulated");
  CHECK(results.at("source").at("mpi").get<std::string>().find("Open MPI") != std::string::npos);
  const auto& row = row_of(results, "4-2-2", "block", 16u << 20);
  CHECK(row.at("wrong") == 0);
  // Alpha-beta bound: 2(N-1) steps, each moving S/N over a 200 Mbit/s NIC direction (one ring edge each).
  const double bound = 2.0 * 7 * (16.0 * 1024 * 1024 / 8) / (200e6 / 8);
  CHECK(row.at("time_stats").at("min").get<double>() >= bound);
  CHECK(row.at("time_s").get<double>() < 3 * bound);  // and the shaping, not something broken, sets the pace
  CHECK(namespaces() == before);
  CHECK(host_veths() == veths_before);
  CHECK(leftover_processes(dir.path()).empty());
}

TEST_CASE("an emulated measurement interrupted midway leaves no namespace and no process") {
  require_emulation();
  TempDir dir;
  const std::string before = namespaces(), veths_before = host_veths();
  const auto scenario = emulated_scenario(dir, R"(["4-2-2", "4-3-1"])", R"(["64MiB"])", "100Mbps");
  const auto json = dir.path() / "never.json";
  const std::string command = std::string(RINGSIM_BINARY) + " measure " + scenario.string() +
                              " --emulated --quiet --json " + json.string() + " >/dev/null 2>&1 & echo $!";
  const pid_t pid = std::stoi(run_shell(command, dir.path()).out);
  // Wait until the cluster exists and ranks run, then interrupt.
  bool running = false;
  for (int i = 0; i < 200 && !running; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    running = !leftover_processes(dir.path()).empty() && namespaces() != before;
  }
  REQUIRE(running);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 100 && ::kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(::kill(pid, 0) != 0);
  CHECK(namespaces() == before);
  CHECK(host_veths() == veths_before);
  CHECK(leftover_processes(dir.path()).empty());
  CHECK_FALSE(std::filesystem::exists(json));
}

// The rank program under ASan + UBSan (ringsim-rank-mpi-asan): an error of ours aborts a rank, so the
// case fails; Open MPI's own leaks at MPI_Finalize are suppressed (measure/openmpi-leaks.supp), with full
// stacks so that each leak shows the Open MPI library that made it.
std::string sanitized_rank_program() {
  if (std::string(RINGSIM_RANK_MPI_ASAN).empty()) skip("ringsim-rank-mpi-asan was not built");
  return std::string("RINGSIM_RANK_MPI=") + RINGSIM_RANK_MPI_ASAN +
         " ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
         " LSAN_OPTIONS=suppressions=" RINGSIM_OPENMPI_LEAKS ":print_suppressions=0 ";
}

// `ringsim measure SCENARIO` on this machine (a hostfile of its own name: Open MPI's seq mapper does
// not match "localhost"), under the sanitized rank program, writing DIR/m.json; returns the run and the host.
std::pair<CommandResult, std::string> measure_here(const TempDir& dir, const std::filesystem::path& scenario) {
  const std::string host = run_shell("hostname", dir.path()).out.substr(0, run_shell("hostname", dir.path()).out.find('\n'));
  auto hostfile = dir.write("hosts", "# one host per topology node\n" + host + " slots=4\n");
  return {run_shell(sanitized_rank_program() + RINGSIM_BINARY + " measure " + scenario.string() + " --hostfile " +
                        hostfile.string() + " --quiet --json " + (dir.path() / "m.json").string() + " -- --mca btl self,vader",
                    dir.path()),
          host};
}

TEST_CASE("measure on a hostfile runs the Open MPI rank program (under ASan + UBSan) and records its source") {
  require_open_mpi();
  TempDir dir;
  dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "box", "gpus": 4}]}]})");
  auto scenario = dir.write("scenario.json", R"({"name": "local", "topology": "topology.json",
      "placements": ["3", {"ranks": "2", "order": "cyclic"}], "sizes": [4100, "1MiB"], "iterations": 2, "warmup": 0})");
  const auto measured = measure_here(dir, scenario);
  const CommandResult& run = measured.first;
  const std::string host = measured.second;
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "m.json");
  CHECK(results.at("kind") == "measured");
  CHECK(results.at("source").at("hosts") == nlohmann::json::array({host}));
  CHECK(results.at("source").at("command").get<std::string>().find("--hostfile") != std::string::npos);
  REQUIRE(results.at("results").size() == 4);
  for (const auto& row : results.at("results")) {
    CHECK(row.at("wrong") == 0);
    CHECK(row.at("time_s").get<double>() > 0);
  }
  CHECK(run.out.find("# 3 block ring: 3 ranks (box:3)") != std::string::npos);
}

TEST_CASE("measure runs a scenario's collectives on the Open MPI rank program (under ASan + UBSan), each exact") {
  require_open_mpi();
  TempDir dir;
  dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "box", "gpus": 4}]}]})");
  auto scenario = dir.write("scenario.json", R"({"name": "local", "topology": "topology.json", "placements": ["3"],
      "algorithms": ["ring"], "collectives": ["all_gather", "reduce_scatter", "broadcast", "reduce", "sendrecv"],
      "sizes": [4100, "1MiB"], "iterations": 1, "warmup": 0})");
  const auto run = measure_here(dir, scenario).first;
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto results = read_json(dir.path() / "m.json");
  REQUIRE(results.at("results").size() == 10);
  std::set<std::string> collectives;
  for (const auto& row : results.at("results")) {
    CAPTURE(row.dump());
    CHECK(row.at("wrong") == 0);
    collectives.insert(row.at("collective").get<std::string>());
  }
  CHECK(collectives.size() == 5);
  CHECK(run.out.find("# 3 block all_gather ring: 3 ranks (box:3)") != std::string::npos);
}

TEST_CASE("measure --out with a relative directory keeps Open MPI's session there, not at the root") {
  require_open_mpi();
  TempDir dir;
  dir.write("topology.json", R"({"racks": [{"nodes": [{"name": "box", "gpus": 2}]}]})");
  auto scenario = dir.write("scenario.json", R"({"name": "local", "topology": "topology.json", "placements": ["2"],
      "sizes": [4100], "iterations": 1, "warmup": 0})");
  const std::string host = run_shell("hostname", dir.path()).out.substr(0, run_shell("hostname", dir.path()).out.find('\n'));
  dir.write("hosts", host + " slots=2\n");
  const auto run = run_shell("cd " + dir.path().string() + " && " + RINGSIM_BINARY +
                                 " measure scenario.json --hostfile hosts --quiet --out kept -- --mca btl self,vader",
                             dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  std::ifstream log(dir.path() / "kept" / "01-2-block-ring" / "mpirun.log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  CHECK(text.find("ringsim-rank: ring 2 ranks") != std::string::npos);
  CHECK(text.find("Impossible to open") == std::string::npos);
  CHECK(text.find("PMIX ERROR") == std::string::npos);
}

TEST_CASE("measure refuses clearly what it cannot do") {
  TempDir dir;
  auto scenario = emulated_scenario(dir, R"(["4-2-2"])", R"(["1MiB"])", "10Gbps");
  auto expect = [&](const std::string& command, int status, const std::string& message) {
    const auto run = run_shell(command, dir.path());
    CAPTURE(command);
    CHECK(run.exit_code == status);
    CHECK_MESSAGE(run.err.find(message) != std::string::npos, run.err);
  };
  const std::string ringsim = RINGSIM_BINARY;
  expect(ringsim + " measure " + scenario.string(), 2, "give either --emulated or --hostfile FILE");
  expect(ringsim + " measure " + scenario.string() + " --emulated -- -np 2", 2, "arguments after -- are for --hostfile");
  expect(ringsim + " measure " + scenario.string() + " --hostfile " + (dir.path() / "none").string(), 2,
         "none: cannot read file");
  if (std::string(RINGSIM_RANK_MPI).empty()) return;  // the rest needs the rank program to get that far
  const std::string mpi_env = "RINGSIM_RANK_MPI=" + std::string(RINGSIM_RANK_MPI) + " ";
  if (::geteuid() == 0) {
    expect(mpi_env + ringsim + " measure " + scenario.string() + " --emulated", 2,
           "node node0 has a 10000 Mbit/s NIC, above the 400 Mbit/s this machine emulates faithfully");
    if (std::system("command -v setpriv >/dev/null 2>&1") == 0) {
      // As user nobody, who must be able to read the scenario to get as far as the root check.
      std::filesystem::permissions(dir.path(), std::filesystem::perms::others_read | std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add);
      expect(mpi_env + "setpriv --reuid=65534 --regid=65534 --clear-groups " + ringsim + " measure " +
                 scenario.string() + " --emulated",
             2, "needs root");
    }
  }
  auto xml = dir.write("flat.xml", R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>
<link id="l" bandwidth="1GBps" latency="1us"/><route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>)");
  auto xml_scenario = dir.write("x.json", R"({"topology": "flat.xml", "placements": ["1-1"], "sizes": ["4"]})");
  if (::geteuid() == 0)
    expect(mpi_env + ringsim + " measure " + xml_scenario.string() + " --emulated", 2,
           "--emulated needs a compact topology");
  // Without tc (PATH holding only mpirun's directory, not /usr/sbin), the refusal says how to get it.
  if (::geteuid() == 0)
    expect("PATH=/nonexistent:$(dirname $(command -v mpirun)) " + mpi_env + ringsim + " measure " + scenario.string() +
               " --emulated",
           2, "not found on PATH: apt-get install iproute2");
}

TEST_CASE("rank-cpu caps every rank in its own cgroup and removes the cgroups afterwards") {
  require_emulation();
  TempDir dir;
  // 2 Gbit/s NICs: the CPU is the limit. A capped rank gets 1 ms per period of 1 ms / share, so the
  // time follows the cap: a quarter of it (0.08 -> 0.02) takes about 4 times as long. Against the
  // uncapped run only the smaller cap is compared: on a loaded machine 8 spinning ranks may have less
  // than one core between them, so 0.08 may cap nothing.
  const auto scenario = emulated_scenario(dir, R"(["4-2-2"])", R"(["4MiB"])", "2Gbps");
  const char* shares[3] = {"", "0.08", "0.02"};
  double times[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const auto out = dir.path() / ("share-" + std::to_string(k) + ".json");
    const auto run = run_ringsim("measure " + scenario.string() + " --emulated --beyond-emulation-limit --quiet" +
                                     (k > 0 ? std::string(" --rank-cpu ") + shares[k] : "") + " --json " +
                                     out.string(),
                                 dir.path());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const auto results = read_json(out);
    times[k] = row_of(results, "4-2-2", "block", 4u << 20).at("time_s").get<double>();
    CHECK(results.at("source").at("emulation").at("rank_cpu_share") ==
          (k > 0 ? nlohmann::json(std::stod(shares[k])) : nlohmann::json()));
  }
  CHECK(times[2] > 2 * times[1]);
  CHECK(times[2] > 2 * times[0]);
  const auto cgroups = run_shell("ls -d /run/ringsim-emulated/cpu/rsim-* 2>/dev/null", dir.path());
  CHECK(cgroups.out.empty());
}
