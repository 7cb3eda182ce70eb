// SMPI's speed levers (docs/engines.md, "Speed: SMPI's levers") are in effect and change no simulated time: the thread-clock
// preload (sim/simulate/smpi_speed/) and the detached-send threshold at 0 for the algorithms the launcher
// applies it to (sim/simulate/smpi_case.cpp). Each is compared with a run where its switch turns it
// off; every other algorithm still finishes and sums exactly with the threshold at 0.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "../../sim/rank/algorithm_catalog.h"
#include "../unit/temp_files.h"
#include "one_to_seventeen_ranks.h"
#include "ringsim_process.h"

#include <doctest/doctest.h>

#include <map>
#include <sstream>

using namespace ringsim::testing;

namespace {

std::string all_algorithms() {
  std::string list;
  for (const auto& info : ringsim::kAlgorithmCatalog)
    if (info.placements == ringsim::AlgorithmInfo::Placements::any) list += (list.empty() ? "\"" : ", \"") + std::string(info.name) + "\"";
  return "[" + list + "]";
}

std::size_t all_algorithms_count() {
  return static_cast<std::size_t>(std::count_if(ringsim::kAlgorithmCatalog.begin(), ringsim::kAlgorithmCatalog.end(),
                                                [](const auto& info) { return info.placements == ringsim::AlgorithmInfo::Placements::any; }));
}

// A stand-in smpirun that appends its arguments (one line per case) to DIR/commands.txt.
std::string recording_smpirun(const TempDir& dir) {
  const auto script = dir.write("smpirun", "#!/bin/sh\necho \"$*\" >>" + (dir.path() / "commands.txt").string() +
                                               "\nexec smpirun \"$@\"\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  return script.string();
}

// Runs SCENARIO_TEXT under ENVIRONMENT ("NAME=value ...") and returns the results JSON.
nlohmann::json run_with(const TempDir& dir, const std::string& name, const std::string& scenario_text,
                        const std::string& environment) {
  const auto file = dir.write(name + ".json", scenario_text);
  const auto results = dir.path() / (name + "-results.json");
  const auto run = run_shell("env " + environment + " " RINGSIM_BINARY " run " + file.string() +
                                 " --quiet --jobs 2 --json " + results.string(),
                             dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return read_json(results);
}

// Every row's simulated times, keyed by what identifies the row, as exact JSON text.
std::map<std::string, std::string> times_by_row(const nlohmann::json& results) {
  std::map<std::string, std::string> times;
  for (const auto& row : results.at("results")) {
    const std::string key = row.at("algorithm").dump() + row.at("placement").dump() + row.at("order").dump() +
                            row.at("bytes").dump();
    times[key] = row.at("time_s").dump() + " " + row.value("times_s", nlohmann::json()).dump();
  }
  return times;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("the thread-clock preload is in effect and every simulated time stays byte-identical without it") {
  TempDir dir;
  const std::string scenario = R"({"name": "clock", "topology": ")" RINGSIM_SOURCE_DIR
                               R"(/topologies/cluster-8x4-10GbE.json", "placements": ["4-4", "4-4-4-4",
      {"ranks": "4-3-1", "order": "cyclic"}], "algorithms": ["ring", "hierarchical", "recursive_doubling", "mpi"],
      "sizes": [4036, "1MiB"], "iterations": 2, "warmup": 1})";
  const auto on_report = dir.path() / "clock-on.txt", off_report = dir.path() / "clock-off.txt";
  const auto with_preload = run_with(dir, "on", scenario, "RINGSIM_CLOCK_REDIRECT_REPORT=" + on_report.string());
  const auto without = run_with(dir, "off", scenario,
                                "RINGSIM_NO_CLOCK_REDIRECT=1 RINGSIM_CLOCK_REDIRECT_REPORT=" + off_report.string());
  // One report per smpimain (3 placements x 4 algorithms), each with the clock reads it answered.
  const auto lines = lines_of(on_report);
  CHECK(lines.size() == 12);
  for (const auto& line : lines) {
    CAPTURE(line);
    REQUIRE(line.starts_with("redirected "));
    CHECK(std::stoull(line.substr(11)) > 100);  // SMPI reads the clock around every MPI call
  }
  CHECK_FALSE(std::filesystem::exists(off_report));  // the switch really turns it off
  const auto on_times = times_by_row(with_preload), off_times = times_by_row(without);
  CHECK(on_times.size() == 3 * 4 * 2);
  CHECK(on_times == off_times);
}

TEST_CASE("the clock preload stays out when a scenario turns measured computation back on") {
  TempDir dir;
  const std::string smpirun = recording_smpirun(dir);
  const std::string scenario = R"({"name": "measured", "topology": ")" RINGSIM_SOURCE_DIR
                               R"(/topologies/cluster-8x4-10GbE.json", "placements": ["2"], "algorithms": ["ring"],
      "sizes": [4036], "iterations": 1, "warmup": 0, "model": {"simgrid": {"smpi/simulate-computation": "yes"}}})";
  run_with(dir, "measured", scenario, "RINGSIM_SMPIRUN=" + smpirun);
  const auto commands = lines_of(dir.path() / "commands.txt");
  REQUIRE(commands.size() == 1);
  CHECK(commands[0].find("-wrapper") == std::string::npos);
}

TEST_CASE("every algorithm finishes and sums exactly with rendezvous sends, which change small messages' times") {
  // smpi/send-is-detached-thresh:0 makes every MPI_Send wait for its receive. No algorithm of ours
  // deadlocks under it; but it changes simulated times once messages fall below SMPI's 64 KiB
  // threshold, so the launcher never sets it (a scenario may, through its "simgrid" settings).
  TempDir dir;
  const std::string smpirun = recording_smpirun(dir);
  const auto topology = dir.write("five.json", kFiveNodeTopology);
  auto scenario = [&](const std::string& placements, const std::string& algorithms, const std::string& model) {
    return R"({"name": "sends", "topology": ")" + topology.string() + R"(", "placements": )" + placements +
           R"(, "algorithms": )" + algorithms + R"(, "sizes": [4, 262148], "iterations": 1, "warmup": 1, "model": )" +
           model + "}";
  };
  const std::string rendezvous_model = R"({"simgrid": {"smpi/send-is-detached-thresh": "0"}})";
  const auto rendezvous = run_with(dir, "rendezvous", scenario(kOneToSeventeenRanks, all_algorithms(), rendezvous_model), "");
  const auto ring_detached = run_with(dir, "detached", scenario(R"(["2"])", R"(["ring"])", "{}"), "RINGSIM_SMPIRUN=" + smpirun);
  const auto ring_rendezvous = run_with(dir, "ring", scenario(R"(["2"])", R"(["ring"])", rendezvous_model), "");
  const auto commands = lines_of(dir.path() / "commands.txt");
  REQUIRE(commands.size() == 1);
  for (const auto& command : commands) {
    CAPTURE(command);
    CHECK(command.find("send-is-detached-thresh") == std::string::npos);
  }
  REQUIRE(rendezvous.at("results").size() == 17 * 2 * all_algorithms_count());
  for (const auto& row : rendezvous.at("results")) {
    CAPTURE(row.dump());
    REQUIRE(row.at("wrong").is_number());
    CHECK(row.at("wrong").get<long long>() == 0);
  }
  // Why it is off: the ring's allreduce on 2 ranks takes another time once its messages are below 64 KiB.
  const auto detached_times = times_by_row(ring_detached), rendezvous_times = times_by_row(ring_rendezvous);
  REQUIRE(detached_times.size() == 2);
  for (const auto& [key, time] : detached_times)
    if (!key.ends_with("262148")) {  // the 4-byte row
      const std::string row_key = key;  // clang 14 cannot capture a structured binding
      CAPTURE(row_key);
      CHECK(time != rendezvous_times.at(key));
    }
}
