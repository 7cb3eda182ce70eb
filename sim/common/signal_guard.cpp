#include "signal_guard.h"

namespace ringsim {
namespace {

// Set from the signal handler only (the one process-wide flag a handler can safely write).
volatile std::sig_atomic_t g_noted_signal = 0;

void note_signal(int signal_number) { g_noted_signal = signal_number; }

void set_action(void (*handler)(int), const sigset_t& held, struct sigaction* previous_int, struct sigaction* previous_term) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_mask = held;
  sigaction(SIGINT, &action, previous_int);
  sigaction(SIGTERM, &action, previous_term);
}

}  // namespace

sigset_t interrupt_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

void handle_interrupts(void (*handler)(int)) { set_action(handler, interrupt_signals(), nullptr, nullptr); }

SignalGuard::SignalGuard() {
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  if (current.sa_handler != note_signal) g_noted_signal = 0;  // the outermost guard starts afresh
  sigset_t nothing_held;
  sigemptyset(&nothing_held);
  set_action(note_signal, nothing_held, &previous_int_, &previous_term_);
}

SignalGuard::~SignalGuard() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

int SignalGuard::noted() const { return g_noted_signal; }

}  // namespace ringsim
