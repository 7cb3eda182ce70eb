// Fuzz target: a scenario file (load_scenario), the strict JSON reader in front of every case.
#include "../../sim/model/scenario.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] { ringsim::load_scenario(file); });
  return 0;
}
