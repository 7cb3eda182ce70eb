// Runs child processes, at most `jobs` at a time, each in its own process group with stdout and
// stderr sent to its log file. On SIGINT/SIGTERM every running child group is killed first.
#pragma once

#include "../common/signal_guard.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ringsim {

struct ChildCommand {
  std::vector<std::string> argv;
  std::filesystem::path log;
  std::vector<std::string> environment;  // NAME=VALUE set for the child, over ringsim's own environment
};

struct ChildOutcome {
  int exit_status = 0;  // exit code, or 128 + signal number
  double wall_s = 0;
};

// A child still running: its index in COMMANDS and how long it has run.
struct RunningChild {
  std::size_t index = 0;
  double wall_s = 0;
};

// Calls on_done(index, outcome) as each child ends, in completion order, and, when given,
// on_waiting(running children) about once a second while children run (for progress).
// Throws Interrupted after killing the children when the user interrupts the run.
void run_children(const std::vector<ChildCommand>& commands, int jobs,
                  const std::function<void(std::size_t, const ChildOutcome&)>& on_done,
                  const std::function<void(const std::vector<RunningChild>&)>& on_waiting = {});

}  // namespace ringsim

namespace ringsim {

struct CapturedOutput {
  int exit_status = 0;
  std::string output;  // stdout and stderr together
};

// Runs ARGV to completion (stdin from /dev/null, in its own process group, killed if ringsim is
// interrupted) and returns what it printed.
CapturedOutput capture_output(const std::vector<std::string>& argv);

}  // namespace ringsim
