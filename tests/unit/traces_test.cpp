// The committed measured traces are valid results files: the schema of docs/results-format.md, numbers that
// agree with their own definitions, and a source block that says how to re-make them.
#include "../../sim/common/json_input.h"
#include "../../sim/model/placement.h"
#include "../../sim/results/case_results.h"

#include <doctest/doctest.h>
#include <filesystem>

using namespace ringsim;

TEST_CASE("committed emulated traces follow the results schema and say how they were made") {
  const std::filesystem::path dir = RINGSIM_SOURCE_DIR "/validate/traces/emulated";
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++traces;
    CAPTURE(entry.path().string());
    const nlohmann::json trace = load_json_file(entry.path());
    CHECK(trace.at("kind") == "measured");
    CHECK(trace.at("scenario").is_string());
    const auto& source = trace.at("source");
    CHECK(source.at("mode") == "emulated");
    CHECK(source.at("command").get<std::string>().rfind("ringsim measure scenarios/emulated/", 0) == 0);
    CHECK(source.at("mpi").get<std::string>().find("Open MPI") != std::string::npos);
    CHECK(source.at("date").get<std::string>().size() == 20);
    CHECK(source.at("emulation").at("nic_rates_bps").size() == source.at("hosts").size());
    REQUIRE(!trace.at("results").empty());
    for (const auto& row : trace.at("results")) {
      CAPTURE(row.dump());
      CHECK(parse_rank_counts(row.at("placement").get<std::string>()));
      CHECK(parse_rank_order(row.at("order").get<std::string>()));
      CHECK(row.at("algorithm") == "ring");
      const int ranks = row.at("ranks").get<int>();
      const auto bytes = row.at("bytes").get<std::uint64_t>();
      const double time = row.at("time_s").get<double>();
      CHECK(row.at("iterations").get<int>() >= 3);
      CHECK(time > 0);
      CHECK(row.at("algbw_GBps").get<double>() == doctest::Approx(algbw_GBps(bytes, time)));
      CHECK(row.at("busbw_GBps").get<double>() == doctest::Approx(busbw_GBps(bytes, time, ranks)));
      const auto& stats = row.at("time_stats");
      CHECK(stats.at("min").get<double>() <= stats.at("median").get<double>());
      CHECK(stats.at("median").get<double>() <= stats.at("max").get<double>());
      CHECK(stats.at("median").get<double>() == time);
      CHECK(row.at("wrong") == 0);
    }
  }
  CHECK(traces >= 6);
}
