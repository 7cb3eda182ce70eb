#include "process_pool.h"

#include "../common/interrupt_cleanup.h"
#include "../common/signal_guard.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <poll.h>
#include <string_view>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ringsim {
namespace {

using Clock = std::chrono::steady_clock;

// How often on_waiting is called while children run.
constexpr std::chrono::milliseconds kWaitingInterval{1000};

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

struct Child {
  std::size_t index;
  Clock::time_point started;
  int exit_fd;  // a pidfd: readable once the child has exited, so poll() can wait with a timeout
};

// The running children of one run_children call, by process id.
class ChildPool {
 public:
  explicit ChildPool(const SignalGuard& signals) : signals_(signals) {}
  ~ChildPool() { kill_all(); }

  std::size_t size() const { return running_.size(); }

  // Starts COMMAND as child INDEX.
  void start(const ChildCommand& command, std::size_t index) {
    const pid_t pid = spawn(command);
    // Through syscall(): glibc 2.36's <sys/pidfd.h> declares pidfd_open without C linkage for C++.
    const int exit_fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (exit_fd < 0) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      throw std::runtime_error(fmt::format("pidfd_open failed: {}", std::strerror(errno)));
    }
    running_[pid] = {index, Clock::now(), exit_fd};
  }

  // Waits until a child exits or TIMEOUT_MS pass (-1: no limit); returns the exit descriptors, those
  // of exited children with POLLIN set, or nullopt when a signal interrupted poll() to no effect.
  std::optional<std::vector<pollfd>> wait_for_exits(int timeout_ms) {
    std::vector<pollfd> exits;
    for (const auto& [pid, child] : running_) exits.push_back({child.exit_fd, POLLIN, 0});
    // Checked before poll() too: a signal noted since the last call would not wake it.
    throw_if_interrupted();
    const int ready = ::poll(exits.data(), exits.size(), timeout_ms);
    throw_if_interrupted();
    if (ready < 0) {
      if (errno == EINTR) return std::nullopt;
      throw std::runtime_error(fmt::format("poll failed: {}", std::strerror(errno)));
    }
    return exits;
  }

  std::vector<RunningChild> running() const {
    std::vector<RunningChild> children;
    for (const auto& [pid, child] : running_)
      children.push_back({child.index, std::chrono::duration<double>(Clock::now() - child.started).count()});
    return children;
  }

  // Collects the children whose exit descriptor is ready, calling ON_DONE for each in EXITS' order.
  void reap(const std::vector<pollfd>& exits, const std::function<void(std::size_t, const ChildOutcome&)>& on_done) {
    for (const pollfd& exit : exits) {
      if ((exit.revents & POLLIN) == 0) continue;
      auto it = std::find_if(running_.begin(), running_.end(), [&](const auto& entry) { return entry.second.exit_fd == exit.fd; });
      int status = 0;
      if (::waitpid(it->first, &status, 0) < 0)
        throw std::runtime_error(fmt::format("waitpid failed: {}", std::strerror(errno)));
      ChildOutcome outcome;
      outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      outcome.wall_s = std::chrono::duration<double>(Clock::now() - it->second.started).count();
      const std::size_t index = it->second.index;
      ::close(it->second.exit_fd);
      running_.erase(it);
      on_done(index, outcome);
    }
  }

  void throw_if_interrupted() {
    const int signal_number = signals_.noted();
    if (signal_number == 0) return;
    kill_all();
    throw Interrupted(signal_number, fmt::format("interrupted by {}", interrupt_name(signal_number)));
  }

  // Kills every running child's process group and waits for it.
  void kill_all() {
    for (const auto& [pid, unused] : running_) ::kill(-pid, SIGKILL);
    for (const auto& [pid, child] : running_) {
      ::waitpid(pid, nullptr, 0);
      ::close(child.exit_fd);
    }
    running_.clear();
  }

 private:
  const SignalGuard& signals_;
  std::map<pid_t, Child> running_;
};

}  // namespace

void run_children(const std::vector<ChildCommand>& commands, int jobs,
                  const std::function<void(std::size_t, const ChildOutcome&)>& on_done,
                  const std::function<void(const std::vector<RunningChild>&)>& on_waiting) {
  const SignalGuard signals;  // a signal is noted; the pool's wait wakes, kills the children and throws
  ChildPool pool(signals);  // kills what still runs when an exception leaves
  std::size_t next = 0;
  Clock::time_point next_waiting_call = Clock::now() + kWaitingInterval;
  while (next < commands.size() || pool.size() > 0) {
    for (; next < commands.size() && static_cast<int>(pool.size()) < std::max(jobs, 1); ++next) pool.start(commands[next], next);
    int timeout_ms = -1;
    if (on_waiting)
      timeout_ms = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(next_waiting_call - Clock::now()).count()));
    const std::optional<std::vector<pollfd>> exits = pool.wait_for_exits(timeout_ms);
    if (!exits) continue;
    if (on_waiting && Clock::now() >= next_waiting_call) {
      on_waiting(pool.running());
      next_waiting_call = Clock::now() + kWaitingInterval;
    }
    pool.reap(*exits, on_done);
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
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t nothing_blocked;  // the child must not inherit the signals held below
  sigemptyset(&nothing_blocked);
  posix_spawnattr_setsigmask(&attributes, &nothing_blocked);
  std::optional<KilledOnInterrupt> killed_on_interrupt;
  int error = 0;
  {
    const InterruptsHeld held;  // between the spawn and the registration, a signal would miss the child
    error = posix_spawnp(&pid, args[0], &files, &attributes, args.data(), environ);
    if (error == 0) killed_on_interrupt.emplace(pid);
  }
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
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
