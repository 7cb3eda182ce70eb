// Fuzz target: a results JSON as `ringsim report` reads it.
#include "../../sim/results/results_document.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] { ringsim::ResultsDocument::load(file); });
  return 0;
}
