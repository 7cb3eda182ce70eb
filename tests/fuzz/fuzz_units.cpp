// Fuzz target: the unit and placement parsers every input goes through ("16MiB", "10Gbps", "1us",
// "1Tf", "4-3-1", "1x65536", "cyclic"). They answer "no value" for bad text; a value must be usable.
#include "../../sim/common/units.h"
#include "../../sim/model/placement.h"
#include "input_contract.h"

#include <cmath>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (const auto bytes = ringsim::parse_bytes(text)) ringsim::format_bytes(*bytes);
    for (const auto parsed : {ringsim::parse_bandwidth(text), ringsim::parse_latency(text), ringsim::parse_speed(text)})
      if (parsed && !(std::isfinite(*parsed) && *parsed >= 0))
        ringsim::fuzz::finding("a unit parser returned a negative or non-finite value", text);
    if (const auto counts = ringsim::parse_rank_counts(text))
      for (const int count : *counts)
        if (count < 0) ringsim::fuzz::finding("a placement with a negative rank count", text);
    ringsim::parse_rank_order(text);
  } catch (const std::exception& error) {
    ringsim::fuzz::finding("a parser threw", error.what());
  }
  return 0;
}
