// Every public log of validate/traces/nccl-corpus/ reads, with the placement, NCCL version and number
// of sizes its corpus.json records; for logs with NCCL's INFO lines, the channels and the transport,
// NICs and GPUDirect RDMA of the hops between nodes; for every log, the algorithm and protocol forced
// (validate's "learning the run" takes them from there). The expected hops of corpus.json were
// counted from the logs' "via NET/..." lines with a regular expression, apart from this reader.
#include "../../sim/validate/run_placement.h"
#include "../../sim/validate/trace_readers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

using namespace ringsim;

namespace {

const std::string kCorpus = RINGSIM_SOURCE_DIR "/validate/traces/nccl-corpus/";

nlohmann::json corpus() {
  std::ifstream in(kCorpus + "corpus.json");
  return nlohmann::json::parse(in);
}

// "8-8" for 2 nodes of 8 ranks: what the header implies for a block placement.
std::string block_placement(int nodes, int per_node) {
  std::vector<int> counts(static_cast<std::size_t>(nodes), per_node);
  return fmt::format("{}", fmt::join(counts, "-"));
}

}  // namespace

TEST_CASE("every corpus log reads with its placement, NCCL version and sizes") {
  const auto entries = corpus();
  REQUIRE(entries.size() >= 10);
  for (const auto& entry : entries) {
    const std::string file = entry.at("file");
    CAPTURE(file);
    const MeasuredTrace trace = read_trace(kCorpus + file, std::nullopt);
    CHECK(trace.format == "nccl-tests");
    CHECK(trace.points.size() == entry.at("sizes").get<std::size_t>());  // rows (superbench's has two of 0 B)
    CHECK(trace.ranks == entry.at("ranks").get<int>());
    REQUIRE(trace.run);
    const RunPlacement placement = placement_of_run(*trace.run);
    REQUIRE_MESSAGE(placement.placement, placement.why_not);
    CHECK(placement.placement->label() ==
          block_placement(entry.at("nodes").get<int>(), entry.at("gpus_per_node").get<int>()) + " block");
    if (entry.at("nccl_version").is_null()) {
      CHECK_FALSE(trace.run->library_version);
    } else {
      REQUIRE(trace.run->library_version);
      CHECK(trace.run->library_version->substr(0, trace.run->library_version->find('+')) ==
            entry.at("nccl_version").get<std::string>());
    }
  }
}

TEST_CASE("every corpus log with INFO lines gives its channels and the NICs and GDR of its network hops") {
  for (const auto& entry : corpus()) {
    if (!entry.at("has_info_lines").get<bool>()) continue;
    const std::string file = entry.at("file");
    CAPTURE(file);
    const MeasuredTrace trace = read_trace(kCorpus + file, std::nullopt);
    REQUIRE(trace.run);
    const NcclRunFacts facts = trace.run->nccl.value_or(NcclRunFacts{});  // superbench's one INFO line says nothing
    if (entry.at("channels").is_null()) CHECK_FALSE(facts.channels);
    else CHECK(facts.channels == entry.at("channels").get<int>());
    const auto& hops = entry.at("network_hops");
    std::set<int> devices;
    for (const auto& hop : facts.network_hops) devices.insert(hop.device);
    if (hops.is_null()) {
      CHECK(facts.network_hops.empty());
    } else {
      REQUIRE_FALSE(facts.network_hops.empty());
      CHECK(facts.network_hops.front().transport == hops.at("transport").get<std::string>());
      CHECK(devices == hops.at("devices").get<std::set<int>>());
      CHECK(facts.any_gdr() == hops.at("gdr").get<bool>());
    }
  }
}

TEST_CASE("every corpus log gives the algorithm and protocol its run forced (NCCL's echo or the command line)") {
  for (const auto& entry : corpus()) {
    const std::string file = entry.at("file");
    CAPTURE(file);
    const MeasuredTrace trace = read_trace(kCorpus + file, std::nullopt);
    REQUIRE(trace.run);
    const NcclRunFacts facts = trace.run->nccl.value_or(NcclRunFacts{});
    if (entry.at("algo_forced").is_null()) CHECK_FALSE(facts.algorithm);
    else CHECK(facts.algorithm == entry.at("algo_forced").get<std::string>());
    if (entry.at("proto_forced").is_null()) CHECK_FALSE(facts.protocol);
    else CHECK(facts.protocol == entry.at("proto_forced").get<std::string>());
  }
}

TEST_CASE("the network plugin's latency is read where the log prints it: aws-ofi-nccl's 75 us on p5, nothing elsewhere") {
  for (const auto& entry : corpus()) {
    const std::string file = entry.at("file");
    CAPTURE(file);
    const MeasuredTrace trace = read_trace(kCorpus + file, std::nullopt);
    const std::optional<double> latency = trace.run && trace.run->nccl ? trace.run->nccl->net_latency_us : std::nullopt;
    if (file.starts_with("aws-p5-efa-2x8-info-tagged")) {
      REQUIRE(latency);
      CHECK(*latency == 75.0);
      CHECK(trace.run->nccl->net_latency_line > 0);
    } else {
      CHECK_FALSE(latency);
    }
  }
}
