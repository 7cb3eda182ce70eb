// Fuzz target: the NCCL topology XML reader of `ringsim import`.
#include "print_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return ringsim::fuzz::read_print_text(data, size, ringsim::read_nccl_topology_xml);
}
