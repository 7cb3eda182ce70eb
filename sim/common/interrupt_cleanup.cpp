#include "interrupt_cleanup.h"

#include "signal_guard.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ringsim {
namespace {

// The registries are fixed arrays of lock-free atomics: the handler may read them at any instant and
// may call only async-signal-safe functions (no allocation, no locks, no std::filesystem).
enum SlotState : int { kFree = 0, kFilling = 1, kArmed = 2 };
constexpr int kSlots = 32;

struct PathSlots {
  std::array<std::atomic<int>, kSlots> state{};
  std::array<std::array<char, PATH_MAX>, kSlots> path{};
};
struct GroupSlots {
  std::array<std::atomic<int>, kSlots> state{};
  std::array<std::atomic<pid_t>, kSlots> group{};
};
PathSlots g_paths;
GroupSlots g_groups;

template <typename Slots>
int claim_slot(Slots& slots) {
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (slots.state[i].compare_exchange_strong(expected, kFilling)) return i;
  }
  return -1;
}

// The record getdents64(2) fills in: readdir(3) may allocate, which a signal handler must not.
struct DirectoryEntry {
  ino64_t inode;
  off64_t next;
  unsigned short length;
  unsigned char type;
  char name[1];
};

bool is_dot_or_dot_dot(const char* name) { return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)); }

void remove_entry(int parent_fd, const char* name);

void remove_contents(int directory_fd) {
  alignas(8) char buffer[4096];
  for (;;) {
    const long filled = ::syscall(SYS_getdents64, directory_fd, buffer, sizeof buffer);
    if (filled <= 0) return;
    for (long offset = 0; offset < filled;) {
      const auto* entry = reinterpret_cast<const DirectoryEntry*>(buffer + offset);
      offset += entry->length;
      if (!is_dot_or_dot_dot(entry->name)) remove_entry(directory_fd, entry->name);
    }
  }
}

// rm -rf NAME, with system calls only (unlink(2) says EISDIR, or EPERM per POSIX, for a directory).
void remove_entry(int parent_fd, const char* name) {
  if (::unlinkat(parent_fd, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    remove_contents(fd);
    ::close(fd);
  }
  ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

void say(const char* line) {
  for (std::size_t left = std::strlen(line); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, line, left);
    if (n <= 0) return;
    line += n;
    left -= static_cast<std::size_t>(n);
  }
}

void clean_up_and_exit(int signal_number) {
  for (int i = 0; i < kSlots; ++i)
    if (g_groups.state[i].load() == kArmed) ::kill(-g_groups.group[i].load(), SIGKILL);
  for (int i = 0; i < kSlots; ++i)
    if (g_groups.state[i].load() == kArmed) ::waitpid(g_groups.group[i].load(), nullptr, 0);
  for (int i = 0; i < kSlots; ++i)
    if (g_paths.state[i].load() == kArmed) remove_entry(AT_FDCWD, g_paths.path[i].data());
  say("ringsim: interrupted by ");
  say(interrupt_name(signal_number));
  say("\n");
  ::_exit(interrupted_exit_status(signal_number));
}

}  // namespace

void install_interrupt_cleanup() { handle_interrupts(clean_up_and_exit); }

RemovedOnInterrupt::RemovedOnInterrupt(const std::filesystem::path& path) : slot_(claim_slot(g_paths)) {
  if (slot_ < 0) return;
  const std::string& text = path.native();
  if (text.size() >= PATH_MAX) {
    g_paths.state[slot_].store(kFree);
    slot_ = -1;
    return;
  }
  std::memcpy(g_paths.path[slot_].data(), text.c_str(), text.size() + 1);
  g_paths.state[slot_].store(kArmed);
}

RemovedOnInterrupt::~RemovedOnInterrupt() {
  if (slot_ >= 0) g_paths.state[slot_].store(kFree);
}

InterruptsHeld::InterruptsHeld() {
  const sigset_t interrupts = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &interrupts, &previous_);
}

InterruptsHeld::~InterruptsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

KilledOnInterrupt::KilledOnInterrupt(pid_t group) : slot_(claim_slot(g_groups)) {
  if (slot_ < 0) return;
  g_groups.group[slot_].store(group);
  g_groups.state[slot_].store(kArmed);
}

KilledOnInterrupt::~KilledOnInterrupt() {
  if (slot_ >= 0) g_groups.state[slot_].store(kFree);
}

}  // namespace ringsim
