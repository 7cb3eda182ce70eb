// A hand-written SimGrid XML is loaded in a child process first: SimGrid stops the whole process on
// some malformed platforms (xbt_die: an abort, e.g. an unknown routing), and its errors may span lines
// or name no place. The child's verdict becomes one InputError "FILE:LINE: what SimGrid said" (LINE:
// where SimGrid's parser was), and only a platform that loaded there is loaded in ringsim itself.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace ringsim {

struct ChildLoad {
  enum class Outcome { loaded, refused, died } outcome = Outcome::loaded;
  int exit_status = 0;   // the child's exit code, or 128 + the signal that ended it
  int line = 0;          // SimGrid's parser line when it refused or aborted (0: unknown)
  std::string message;   // one line: SimGrid's exception, or its last CRITICAL log line before dying
  std::string log;       // all the child printed (SimGrid's log, a sanitizer's report)
};

// Runs LOAD (which loads FILE into a SimGrid engine of its own) in a child process and returns how it went.
// When SimGrid aborts, the child exits with status kSimgridAborted.
constexpr int kSimgridAborted = 128 + 6;  // 128 + SIGABRT
ChildLoad load_in_child(const std::filesystem::path& file, const std::function<void()>& load);

// Throws InputError "FILE:LINE: ..." unless LOAD succeeded.
void throw_unless_loaded(const std::filesystem::path& file, const ChildLoad& load);

}  // namespace ringsim
