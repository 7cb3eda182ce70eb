// Fuzz target: the timeline readers. The same bytes go to `ringsim report --timeline`'s reader (a
// Chrome trace, read as a file) and to the reader of the rank program's events file (JSON lines),
// which `ringsim run --timeline` turns into such a trace.
#include "../../sim/common/json_input.h"
#include "../../sim/report/chunk_movement.h"
#include "../../sim/results/chrome_timeline.h"
#include "input_contract.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".json");
  ringsim::fuzz::write_input(file, data, size);
  ringsim::fuzz::expect_value_or_located_error(
      file.string(), [&] { ringsim::movement_from_timeline(ringsim::load_json_file(file), file.string()); });
  const std::string events_file = "events.jsonl";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ringsim::fuzz::expect_value_or_located_error(events_file, [&] { ringsim::parse_events_lines(text, events_file); });
  return 0;
}
