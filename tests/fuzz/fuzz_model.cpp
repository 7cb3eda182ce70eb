// Fuzz target: a model file given with --model (load_model_file over the defaults).
#include "../../sim/model/model_settings.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(file.string(),
                                               [&] { ringsim::load_model_file(file, ringsim::ModelSettings{}); });
  return 0;
}
