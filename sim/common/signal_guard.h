// The one place ringsim sets what SIGINT and SIGTERM do. For a whole command, main installs an action
// that cleans up and exits (interrupt_cleanup.h); a stretch of code that stops on its own terms (the
// process pool kills its children and throws, a sweep stops between shards) holds a SignalGuard
// meanwhile: the signal is only noted, and the code asks for it.
#pragma once

#include <csignal>
#include <stdexcept>
#include <string>

namespace ringsim {

// SIGINT and SIGTERM, the signals that interrupt a command.
sigset_t interrupt_signals();

// "SIGINT" or "SIGTERM" (async-signal-safe).
constexpr const char* interrupt_name(int signal_number) { return signal_number == SIGINT ? "SIGINT" : "SIGTERM"; }

// Sets HANDLER for SIGINT and SIGTERM; a second signal waits while the handler runs for the first.
void handle_interrupts(void (*handler)(int));

// While alive, SIGINT and SIGTERM are only noted. Without SA_RESTART: a blocking call (poll, waitpid)
// returns EINTR, so a waiting loop wakes to look. A guard made while another is alive (a pool's
// run inside a sweep) shares its note, so a signal noted by either is seen by both.
class SignalGuard {
 public:
  SignalGuard();
  ~SignalGuard();  // the previous action again
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  // The signal noted since the outermost guard was made, 0 if none.
  int noted() const;

 private:
  struct sigaction previous_int_ {}, previous_term_ {};
};

// A run stopped by SIGINT or SIGTERM; main exits with 128 + signal_number() (1 when it is unknown).
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  Interrupted(int signal_number, const std::string& what) : std::runtime_error(what), signal_number_(signal_number) {}
  int signal_number() const { return signal_number_; }

 private:
  int signal_number_ = 0;
};

}  // namespace ringsim
