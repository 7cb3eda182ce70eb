// What a SIGINT or SIGTERM must not leave behind, wherever in a command it arrives: the handler that
// main installs kills the registered child process groups, removes the registered temporary files and
// directories, prints one line and exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM).
// A stretch of code that stops on its own terms holds a SignalGuard (signal_guard.h) meanwhile.
#pragma once

#include <csignal>
#include <filesystem>
#include <sys/types.h>

namespace ringsim {

// Installs the handler for SIGINT and SIGTERM; called once, first thing in main.
void install_interrupt_cleanup();

// The exit status of a command ended by SIGNAL_NUMBER: 128 + its number, as a shell reports it.
constexpr int interrupted_exit_status(int signal_number) { return 128 + signal_number; }

// While alive, PATH (a file, or a directory and all it holds) is removed if the process is interrupted.
class RemovedOnInterrupt {
 public:
  explicit RemovedOnInterrupt(const std::filesystem::path& path);
  ~RemovedOnInterrupt();
  RemovedOnInterrupt(const RemovedOnInterrupt&) = delete;
  RemovedOnInterrupt& operator=(const RemovedOnInterrupt&) = delete;

 private:
  int slot_;  // -1 when every slot was taken (then the path is not covered)
};

// While alive, SIGINT and SIGTERM wait: for the instant between creating a temporary path and
// registering it.
class InterruptsHeld {
 public:
  InterruptsHeld();
  ~InterruptsHeld();
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t previous_;
};

// While alive, the process group GROUP (a child started as a group leader) is killed if the process
// is interrupted, and the child reaped.
class KilledOnInterrupt {
 public:
  explicit KilledOnInterrupt(pid_t group);
  ~KilledOnInterrupt();
  KilledOnInterrupt(const KilledOnInterrupt&) = delete;
  KilledOnInterrupt& operator=(const KilledOnInterrupt&) = delete;

 private:
  int slot_;
};

}  // namespace ringsim
