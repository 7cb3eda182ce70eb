// Fuzz target: a compact topology file (load_topology), then the platform ringsim builds from it:
// its cluster layout and its SimGrid XML (through the platform plan).
#include "../../sim/platform/cluster_layout.h"
#include "../../sim/platform/platform_xml.h"
#include "../../sim/platform/topology.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] {
    const ringsim::Topology topology = ringsim::load_topology(file);
    ringsim::layout_of(topology);
    ringsim::platform_xml(topology);
  });
  return 0;
}
