// Fuzz target: a hand-written SimGrid XML platform, as ringsim reads it (cluster_layout.h): SimGrid
// loads it, then ringsim takes its nodes. SimGrid's engine is a process-wide singleton that loads one
// platform, so ringsim loads each file in a child process first (simgrid_xml_check.h) and so does this
// target, per input. Coverage: libsimgrid (Debian's) is not instrumented, and the child's counters stay
// in the child, so guidance comes from what the parent runs (the verdict's parsing) and the seeds; this
// target mostly replays mutations blind. The contract: loaded, or an InputError "FILE:LINE: ...";
// a sanitizer report in the child, or a child that dies without ringsim turning it into that line,
// is a finding.
#include "../../sim/platform/cluster_layout.h"
#include "input_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& file = ringsim::fuzz::input_file(".xml");
  ringsim::fuzz::write_input(file, data, size);
  const ringsim::ChildLoad load = ringsim::load_simgrid_xml_in_child(file);
  for (const char* report : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"})
    if (load.log.find(report) != std::string::npos) ringsim::fuzz::finding("a sanitizer report while SimGrid loaded it", load.log);
  ringsim::fuzz::expect_value_or_located_error(file.string(), [&] { ringsim::throw_unless_loaded(file, load); });
  return 0;
}
