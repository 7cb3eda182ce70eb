#include "../../sim/common/units.h"

#include <doctest/doctest.h>

using namespace ringsim;

TEST_CASE("sizes use binary suffixes as nccl-tests' -b/-e") {
  CHECK(parse_bytes("1048576") == 1048576u);
  CHECK(parse_bytes("4KiB") == 4096u);
  CHECK(parse_bytes("4K") == 4096u);
  CHECK(parse_bytes("16MiB") == 16u << 20);
  CHECK(parse_bytes("16M") == 16u << 20);
  CHECK(parse_bytes("1GiB") == 1u << 30);
  CHECK(parse_bytes("1.5KiB") == 1536u);
  CHECK_FALSE(parse_bytes("16 mebibytes"));
  CHECK_FALSE(parse_bytes("MiB"));
  CHECK_FALSE(parse_bytes("-4K"));
  CHECK_FALSE(parse_bytes("0.3B"));
  CHECK(format_bytes(64u << 20) == "64MiB");
  CHECK(format_bytes(1000) == "1000B");
}

TEST_CASE("bandwidths follow SimGrid: bps are bits and Bps are bytes") {
  CHECK(parse_bandwidth("10Gbps") == doctest::Approx(1.25e9));
  CHECK(parse_bandwidth("1.25GBps") == doctest::Approx(1.25e9));
  CHECK(parse_bandwidth("100Mbps") == doctest::Approx(12.5e6));
  CHECK(parse_bandwidth("12GBps") == doctest::Approx(12e9));
  CHECK(parse_bandwidth("1GiBps") == doctest::Approx(1073741824.0));
  CHECK_FALSE(parse_bandwidth("10Gbs"));
  CHECK_FALSE(parse_bandwidth("10"));  // a unit is required: bits or bytes?
  CHECK_FALSE(parse_bandwidth("0Gbps"));
}

TEST_CASE("latencies and speeds") {
  CHECK(parse_latency("1us") == doctest::Approx(1e-6));
  CHECK(parse_latency("0.5ms") == doctest::Approx(5e-4));
  CHECK(parse_latency("0s") == 0.0);
  CHECK_FALSE(parse_latency("1"));
  CHECK_FALSE(parse_latency("1 parsec"));
  CHECK(parse_speed("1Tf") == doctest::Approx(1e12));
  CHECK(parse_speed("100Gf") == doctest::Approx(1e11));
  CHECK_FALSE(parse_speed("fast"));
}
