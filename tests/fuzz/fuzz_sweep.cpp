// Fuzz target: a sweep file (load_sweep), what `ringsim sweep plan|run` reads before any case.
#include "../../sim/model/sweep_spec.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] { ringsim::load_sweep(file); });
  return 0;
}
