// Fuzz target: a hand-written SimGrid XML platform, as ringsim reads it (cluster_layout.h): SimGrid
// loads it, then ringsim takes its nodes. SimGrid's engine is a process-wide singleton that loads one
// platform, so ringsim loads each file in a child process first (simgrid_xml_check.h) and so does this
// target, per input. Coverage: libsimgrid (Debian's) is not instrumented, and the child's counters stay
// in the child, so guidance comes from what the parent runs (the verdict's parsing) and the seeds; this
// target mostly replays mutations blind. The contract: loaded, or an InputError "FILE:LINE: ...";
// a child that dies otherwise than by SimGrid's abort (a crash, a sanitizer report) is a finding.
#include "../../sim/platform/cluster_layout.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".xml");
  ringsim::fuzz::write_input(file, data, size);
  const ringsim::ChildLoad load = ringsim::load_simgrid_xml_in_child(file);
  // By its exit status, not its output: SimGrid echoes the input in its messages, and libFuzzer soon
  // learns to write "ERROR: LeakSanitizer" into it (a false finding, kept in the corpus). A
  // sanitizer report exits 1, a crash by a signal; SimGrid's own abort is what ringsim turns into a line.
  if (load.outcome == ringsim::ChildLoad::Outcome::died && load.exit_status != ringsim::kSimgridAborted)
    ringsim::fuzz::finding("the loading child crashed or a sanitizer stopped it (not SimGrid's abort)", load.log);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] { ringsim::throw_unless_loaded(file, load); });
  return 0;
}
