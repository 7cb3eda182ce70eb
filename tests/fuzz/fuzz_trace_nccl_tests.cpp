// Fuzz target: the nccl-tests trace reader of `ringsim validate`.
#include "trace_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return ringsim::fuzz::read_trace_text(data, size, ringsim::read_nccl_tests);
}
