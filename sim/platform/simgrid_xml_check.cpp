#include "simgrid_xml_check.h"

#include "../common/input_error.h"
#include "../common/interrupt_cleanup.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <fmt/format.h>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>

// SimGrid 3.32's XML lexer line: libsimgrid exports it, no public header declares it. The place of an
// error that SimGrid reports without one (an unknown link, a second host of the same name, an abort).
int surf_parse_get_lineno();

namespace ringsim {
namespace {

// The child's last words on its stderr (which the parent reads): MARKER LINE TAB MESSAGE.
constexpr char kVerdictMarker = '\x01';
constexpr int kRefusedStatus = 3;

void write_all(int fd, const char* text, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, text, size);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) text += n, size -= static_cast<std::size_t>(n);
  }
}

// In the child, when SimGrid aborts: the parser's line, with write() only.
void report_line_and_die(int) {
  char digits[12];
  int count = 0;
  for (int line = std::max(surf_parse_get_lineno(), 0); count == 0 || (line > 0 && count < 11); line /= 10)
    digits[count++] = static_cast<char>('0' + line % 10);
  char text[16] = {'\n', kVerdictMarker};
  int size = 2;
  while (count > 0) text[size++] = digits[--count];
  text[size++] = '\t';
  write_all(STDERR_FILENO, text, static_cast<std::size_t>(size));
  ::_exit(kSimgridAborted);
}

[[noreturn]] void run_child(int log_fd, const std::function<void()>& load) {
  ::dup2(log_fd, STDERR_FILENO);
  ::dup2(log_fd, STDOUT_FILENO);
  std::signal(SIGABRT, report_line_and_die);
  try {
    load();
  } catch (const std::exception& e) {
    const std::string verdict = fmt::format("\n{}{}\t{}", kVerdictMarker, surf_parse_get_lineno(), e.what());
    write_all(STDERR_FILENO, verdict.data(), verdict.size());
    ::_exit(kRefusedStatus);
  }
  ::_exit(0);  // no destructors, no atexit: SimGrid's teardown is not for a child to run
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

// One line: SimGrid's messages may hold newlines and "Parse error at FILE:LINE: " (the place is ours).
std::string one_line(std::string text, const std::string& file) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  for (const std::string& prefix : {fmt::format("Parse error at {}:", file), file + ": "})
    if (text.starts_with(prefix)) {
      text.erase(0, prefix.size());
      if (text.find(": ") != std::string::npos && prefix.back() == ':') text.erase(0, text.find(": ") + 2);
    }
  while (text.find("  ") != std::string::npos) text.erase(text.find("  "), 1);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// The last "[root/CRITICAL] message" SimGrid logged before it aborted.
std::string last_critical_line(const std::string& log) {
  const std::size_t tag = log.rfind("/CRITICAL] ");
  if (tag == std::string::npos) return "";
  const std::size_t start = tag + std::strlen("/CRITICAL] ");
  return log.substr(start, log.find('\n', start) - start);
}

}  // namespace

ChildLoad load_in_child(const std::filesystem::path& file, const std::function<void()>& load) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", std::strerror(errno)));
  std::fflush(nullptr);  // nothing buffered may be printed twice
  std::optional<InterruptsHeld> held(std::in_place);  // until the child is registered to be killed
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    ::setpgid(0, 0);
    std::signal(SIGINT, SIG_DFL);  // not ringsim's cleanup: that is the parent's to do
    std::signal(SIGTERM, SIG_DFL);
    held.reset();
    ::close(fds[0]);
    run_child(fds[1], load);
  }
  ::setpgid(pid, pid);  // both sides: whichever runs first, the group exists before it may be killed
  const KilledOnInterrupt killed_on_interrupt(pid);
  held.reset();
  ::close(fds[1]);
  ChildLoad result;
  result.log = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.exit_status == 0) return result;
  const std::size_t marker = result.log.rfind(kVerdictMarker);
  if (marker != std::string::npos) {
    result.line = std::atoi(result.log.c_str() + marker + 1);
    const std::size_t tab = result.log.find('\t', marker);
    if (tab != std::string::npos) result.message = one_line(result.log.substr(tab + 1), file.string());
  }
  result.outcome = result.exit_status == kRefusedStatus ? ChildLoad::Outcome::refused : ChildLoad::Outcome::died;
  if (result.outcome == ChildLoad::Outcome::died) {
    const std::string critical = one_line(last_critical_line(result.log), file.string());
    result.message = fmt::format("SimGrid stopped on this platform{}", critical.empty() ? "" : ": " + critical);
  }
  return result;
}

void throw_unless_loaded(const std::filesystem::path& file, const ChildLoad& load) {
  if (load.outcome == ChildLoad::Outcome::loaded) return;
  // Line 1 when SimGrid died before its parser read a line, or in a way that left no line (a crash).
  throw InputError(fmt::format("{}:{}: not a valid SimGrid platform: {}", file.string(), std::max(load.line, 1), load.message));
}

}  // namespace ringsim
