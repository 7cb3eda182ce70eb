#include "process_pool.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <map>
#include <string_view>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ringsim {
namespace {

using Clock = std::chrono::steady_clock;

// Set from the signal handler only; read by the waiting loop (the one process-wide flag we need).
volatile std::sig_atomic_t g_interrupt_signal = 0;

void note_signal(int signal_number) { g_interrupt_signal = signal_number; }

// Installs the handler for the lifetime of a run_children call, without SA_RESTART so waitpid wakes.
class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction action {};
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

pid_t spawn(const ChildCommand& command) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, command.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> argv;
  for (const std::string& arg : command.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> environment;
  for (const std::string& setting : command.environment) environment.push_back(const_cast<char*>(setting.c_str()));
  for (char** inherited = environ; *inherited != nullptr; ++inherited) {
    const std::string_view name(*inherited, std::strcspn(*inherited, "="));
    if (std::none_of(command.environment.begin(), command.environment.end(),
                     [&](const std::string& setting) { return setting.starts_with(name) && setting.size() > name.size() && setting[name.size()] == '='; }))
      environment.push_back(*inherited);
  }
  environment.push_back(nullptr);
  pid_t pid = 0;
  int error = posix_spawnp(&pid, argv[0], &files, &attributes, argv.data(), command.environment.empty() ? environ : environment.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) throw std::runtime_error(fmt::format("cannot start {}: {}", command.argv[0], std::strerror(error)));
  return pid;
}

}  // namespace

void run_children(const std::vector<ChildCommand>& commands, int jobs,
                  const std::function<void(std::size_t, const ChildOutcome&)>& on_done) {
  SignalGuard guard;
  g_interrupt_signal = 0;
  std::map<pid_t, std::pair<std::size_t, Clock::time_point>> running;
  auto kill_all = [&] {
    for (const auto& [pid, unused] : running) ::kill(-pid, SIGKILL);
    for (const auto& [pid, unused] : running) ::waitpid(pid, nullptr, 0);
    running.clear();
  };
  std::size_t next = 0;
  try {
    while (next < commands.size() || !running.empty()) {
      while (next < commands.size() && static_cast<int>(running.size()) < std::max(jobs, 1)) {
        running[spawn(commands[next])] = {next, Clock::now()};
        ++next;
      }
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, 0);
      if (g_interrupt_signal != 0) {
        kill_all();
        throw Interrupted(fmt::format("interrupted by signal {}", static_cast<int>(g_interrupt_signal)));
      }
      if (pid < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(fmt::format("waitpid failed: {}", std::strerror(errno)));
      }
      auto it = running.find(pid);
      if (it == running.end()) continue;
      ChildOutcome outcome;
      outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      outcome.wall_s = std::chrono::duration<double>(Clock::now() - it->second.second).count();
      const std::size_t index = it->second.first;
      running.erase(it);
      on_done(index, outcome);
    }
  } catch (...) {
    kill_all();
    throw;
  }
}

}  // namespace ringsim

namespace ringsim {

CapturedOutput capture_output(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", std::strerror(errno)));
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&files, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&files, pipe_fds[0]);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int error = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  ::close(pipe_fds[1]);
  CapturedOutput captured;
  if (error != 0) {
    ::close(pipe_fds[0]);
    throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(error)));
  }
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    captured.output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  captured.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return captured;
}

}  // namespace ringsim
